package org.elastras.master.dashboard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.PartitioningKind;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.WireFormat;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionRecord;
import org.elastras.master.cluster.PartitionView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Jetty handler of the dashboard: the static page ({@code /}, {@code /app.js},
 * {@code /app.css}), the read API ({@code GET /api/...}), the admin API ({@code POST /api/admin/...},
 * token required), {@code /metrics}, {@code /health} and {@code /ready}. See
 * {@code docs/dashboard.md} for the paths and answers. Thread-safe: Jetty calls it from its
 * threads, and it holds only final references to thread-safe objects.
 *
 * <p>No request makes it throw to Jetty: refusals are {@link ApiError}s answered as
 * {@code {"error": message}} with their status, and an unexpected failure is a logged 500.
 */
final class DashboardHandler extends Handler.Abstract {

    private static final Logger LOG = LoggerFactory.getLogger(DashboardHandler.class);
    /** Largest admin request body. */
    static final int BODY_BYTES_MAX = 64 * 1024;
    /** The most of a too large body read (and dropped) before it is refused, so the refusal arrives. */
    static final int DRAIN_BYTES_MAX = 1024 * 1024;
    private static final String JSON = "application/json";
    /** Everything from this server only: the page works offline and cannot load anything else. */
    private static final String CONTENT_SECURITY_POLICY = "default-src 'self'; img-src 'self' data:;"
            + " frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

    private final Master master;
    private final DashboardViews views;
    private final AdminToken token;
    private final boolean openReads;
    private final StaticFiles files;
    private final ObjectMapper json = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    private final AdminRequests requests = new AdminRequests();
    private final ProtocolCodec codec = new ProtocolCodec(BODY_BYTES_MAX, ProtocolCodec.NESTING_DEPTH_MAX_DEFAULT);

    DashboardHandler(Master master, DashboardViews views, DashboardConfig config, StaticFiles files) {
        this.master = Objects.requireNonNull(master, "master");
        this.views = Objects.requireNonNull(views, "views");
        this.token = new AdminToken(config.adminToken());
        this.openReads = config.openReads();
        this.files = Objects.requireNonNull(files, "files");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        String method = request.getMethod();
        try {
            route(path == null ? "" : path, method, request, response, callback);
        } catch (ApiError e) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("error", e.getMessage());
            body.putAll(e.details());
            if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
                // The body may be unread (refused before reading it): the rest of it would be
                // parsed as the next request, so this connection ends with the answer, and says so.
                response.getHeaders().put(HttpHeader.CONNECTION, "close");
            }
            if (e.status() == 405) {
                response.getHeaders().put(HttpHeader.ALLOW, e.details().getOrDefault("allow", "GET").toString());
            }
            writeJson(response, callback, e.status(), body);
        } catch (Exception | StackOverflowError e) {
            LOG.error("dashboard request {} {} failed", method, path, e);
            writeJson(response, callback, 500, Map.of("error", "the dashboard failed (" + e.getClass().getSimpleName()
                    + "); see the master's log"));
        }
        return true;
    }

    private void route(String path, String method, Request request, Response response, Callback callback)
            throws Exception {
        switch (path) {
            case "/health" -> {
                requireGet(method);
                writeText(response, callback, 200, "text/plain; charset=utf-8", "ok\n");
                return;
            }
            case "/ready" -> {
                requireGet(method);
                boolean ready = master.active();
                writeText(response, callback, ready ? 200 : 503, "text/plain; charset=utf-8",
                        ready ? "ok\n" : "standby: not the active master\n");
                return;
            }
            case "/metrics" -> {
                requireGet(method);
                requireRead(request);
                writeText(response, callback, 200, PrometheusText.CONTENT_TYPE, PrometheusText.render(master.masterId(),
                        master.active(), master.otms(), master.partitions(), master.loads(), master.issuedUpToCts(),
                        master.snapshotCts(), master.events().lastSequence(), views.metricsExtras()));
                return;
            }
            default -> {
                // Below.
            }
        }
        StaticFiles.File file = files.get(path.equals("/") ? "/index.html" : path);
        if (file != null) {
            requireGet(method);
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
            response.getHeaders().put("Content-Security-Policy", CONTENT_SECURITY_POLICY);
            response.getHeaders().put("X-Content-Type-Options", "nosniff");
            write(response, callback, 200, file.contentType(), file.bytes());
            return;
        }
        if (path.startsWith("/api/admin/")) {
            if (!HttpMethod.POST.is(method)) {
                throw new ApiError(405, path + " takes POST, got " + method, Map.of("allow", "POST"));
            }
            admin(path.substring("/api/admin/".length()), request, response, callback);
            return;
        }
        if (path.startsWith("/api/")) {
            requireGet(method);
            requireRead(request);
            requireActive();
            writeJson(response, callback, 200, read(path.substring("/api/".length()), request));
            return;
        }
        throw new ApiError(404, "no such path '" + shorten(path) + "'; the dashboard is at /, its API under /api/"
                + " (summary, otms, partitions, databases, hot, moves, balancer, timestamps, series, events, overview),"
                + " admin actions"
                + " under /api/admin/, and /metrics, /health, /ready");
    }

    private Object read(String what, Request request) throws Exception {
        Fields query = Request.extractQueryParameters(request);
        return switch (what) {
            case "overview" -> views.overview(longParameter(query, "after", 0, 0, Long.MAX_VALUE));
            case "summary" -> views.summary();
            case "otms" -> views.otms();
            case "partitions" -> views.partitions();
            case "databases" -> views.databases();
            case "hot" -> views.hot();
            case "moves" -> views.moves();
            case "balancer" -> views.balancer();
            case "timestamps" -> views.timestamps();
            case "series" -> views.series();
            case "events" -> views.events(longParameter(query, "after", 0, 0, Long.MAX_VALUE),
                    (int) longParameter(query, "limit", DashboardViews.EVENTS_PER_ANSWER_MAX, 1,
                            DashboardViews.EVENTS_PER_ANSWER_MAX));
            default -> throw new ApiError(404, "no such read '/api/" + shorten(what) + "'; use one of summary, otms,"
                    + " partitions, databases, hot, moves, balancer, timestamps, series, events, overview");
        };
    }

    private void admin(String action, Request request, Response response, Callback callback) throws Exception {
        String[] parts = action.split("/", -1);
        token.check(request.getHeaders().get(HttpHeader.AUTHORIZATION), "'" + shorten(action) + "'");
        requireActive();
        if (parts.length == 1 && (parts[0].equals("databases") || parts[0].equals("tenants"))) {
            CreateDatabaseRequest create = readCreate(request);
            writeJson(response, callback, 201, create(parts[0].equals("tenants"), create));
        } else if (parts.length == 3 && parts[0].equals("partitions") && parts[2].equals("move")) {
            long partitionId = positiveId("partition id", parts[1]);
            AdminRequests.MoveRequest move = requests.move(readBody(request, false, "{\"to\": \"<otmId>\"}"));
            writeJson(response, callback, 202, move(partitionId, move.to()));
        } else if (parts.length == 3 && parts[0].equals("otms") && parts[2].equals("drain")) {
            String otmId = AdminRequests.otmId(parts[1], "the OTM id in the path /api/admin/otms/<otmId>/drain");
            AdminRequests.DrainRequest drain = requests.drain(readBody(request, true, "{\"drain\": true}"));
            writeJson(response, callback, 202, drain(otmId, drain.drain()));
        } else {
            throw new ApiError(404, "no such admin action '" + shorten(action) + "'; use POST /api/admin/databases,"
                    + " /api/admin/tenants, /api/admin/partitions/<id>/move or /api/admin/otms/<id>/drain");
        }
    }

    private Map<String, Object> create(boolean tenant, CreateDatabaseRequest create) throws Exception {
        DatabaseSchema schema;
        try {
            schema = create.schema().toSchema();
        } catch (ElasTrasException | IllegalArgumentException e) {
            throw new ApiError(400, "invalid schema: " + e.getMessage());
        }
        boolean single = schema.partitioning() == PartitioningKind.SINGLE_PARTITION;
        if (tenant && (!single || !create.rootKeyBoundaries().isEmpty())) {
            throw new ApiError(400, "a tenant is a single-partition database: give partitioning SINGLE_PARTITION"
                    + " and no rootKeyBoundaries, or use /api/admin/databases");
        }
        if (!tenant && single) {
            throw new ApiError(400, "database " + schema.name() + " is single-partition; create it with"
                    + " /api/admin/tenants");
        }
        if (master.databases().keySet().stream().anyMatch(name -> Names.same(name, schema.name()))) {
            throw new ApiError(409, "database " + schema.name() + " exists already; pick another name");
        }
        List<PartitionView> created;
        try {
            created = tenant ? List.of(master.createTenant(schema))
                    : master.createDatabase(schema, create.rootKeyBoundaries());
        } catch (IllegalArgumentException | ElasTrasException e) {
            throw new ApiError(400, e.getMessage());
        } catch (IllegalStateException e) {
            throw new ApiError(503, e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("database", schema.name());
        out.put("partitions", created.stream().map(v -> {
            PartitionRecord r = v.record();
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("partitionId", r.partitionId());
            m.put("startKey", r.startKey());
            m.put("endKey", r.endKey());
            m.put("owner", r.owner());
            m.put("state", v.state().name());
            return m;
        }).toList());
        return out;
    }

    /**
     * Starts moving {@code partitionId} to {@code to}. Refused, changing nothing: 404 for a partition
     * that does not exist, 400 for an OTM the master does not know, 409 when the master cannot start
     * it now (not serving, moving already, the destination owns it, is not live or is draining, the
     * bound on moves and opens is reached).
     */
    private Map<String, Object> move(long partitionId, String to) throws Exception {
        PartitionView before = master.partitions().stream().filter(v -> v.record().partitionId() == partitionId)
                .findFirst().orElseThrow(() -> new ApiError(404, "there is no partition " + partitionId
                        + "; the partitions are listed at /api/partitions"));
        if (master.otms().stream().noneMatch(o -> o.otmId().equals(to))) {
            throw new ApiError(400, "there is no OTM '" + shorten(to) + "'; the OTMs are listed at /api/otms");
        }
        PartitionView started;
        try {
            started = master.movePartition(partitionId, to);
        } catch (IllegalArgumentException e) {
            throw new ApiError(409, e.getMessage() + "; nothing was changed");
        } catch (IllegalStateException e) {
            throw new ApiError(503, e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("partitionId", partitionId);
        out.put("database", started.record().database());
        out.put("from", before.record().owner());
        out.put("to", to);
        out.put("epoch", started.record().epoch());
        out.put("state", started.state().name());
        return out;
    }

    /** Starts or stops draining {@code otmId}: 404 for an OTM the master does not know, 409 for one not live. */
    private Map<String, Object> drain(String otmId, boolean drain) throws Exception {
        OtmView otm = master.otms().stream().filter(o -> o.otmId().equals(otmId)).findFirst()
                .orElseThrow(() -> new ApiError(404, "there is no OTM '" + shorten(otmId)
                        + "'; the OTMs are listed at /api/otms"));
        if (!otm.live()) {
            throw new ApiError(409, "OTM " + otmId + " is not live (declared failed); its partitions are"
                    + " recovered elsewhere without a drain");
        }
        try {
            master.drainOtm(otmId, drain);
        } catch (IllegalArgumentException e) {
            throw new ApiError(409, e.getMessage() + "; nothing was changed");
        } catch (IllegalStateException e) {
            throw new ApiError(503, e.getMessage());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("otmId", otmId);
        out.put("draining", master.drainingOtms().contains(otmId));
        out.put("partitions", master.partitions().stream().filter(v -> otmId.equals(v.record().owner())).count());
        return out;
    }

    private CreateDatabaseRequest readCreate(Request request) throws IOException {
        byte[] body = readBody(request, false, "{\"schema\": {\"name\", \"partitioning\", \"tables\"},"
                + " \"rootKeyBoundaries\": [...]}");
        try {
            return codec.decode(body, CreateDatabaseRequest.class, WireFormat.JSON, "createDatabase");
        } catch (ElasTrasException e) {
            throw new ApiError(e.httpStatus() >= 400 && e.httpStatus() < 500 ? e.httpStatus() : 400, e.getMessage());
        }
    }

    /**
     * An admin call's body: JSON ({@code Content-Type}, 415 otherwise) of at most
     * {@link #BODY_BYTES_MAX} bytes (413). Empty is refused (400, showing {@code example}) unless
     * {@code emptyAllowed}; an empty body needs no content type.
     */
    private static byte[] readBody(Request request, boolean emptyAllowed, String example) throws IOException {
        String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        long declared = request.getLength();
        if (emptyAllowed && declared == 0) {
            return new byte[0];
        }
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith(JSON)) {
            throw new ApiError(415, "send the request as " + JSON + ", got Content-Type " + contentType);
        }
        if (declared > BODY_BYTES_MAX) {
            if (declared <= DRAIN_BYTES_MAX) {
                try (InputStream in = Request.asInputStream(request)) {
                    drain(in);
                }
            }
            throw new ApiError(413, "request body is " + declared + " bytes; the limit is " + BODY_BYTES_MAX);
        }
        byte[] body;
        try (InputStream in = Request.asInputStream(request)) {
            body = in.readNBytes(BODY_BYTES_MAX + 1);
            if (body.length > BODY_BYTES_MAX) {
                drain(in);
            }
        }
        if (body.length > BODY_BYTES_MAX) {
            throw new ApiError(413, "request body is over the limit of " + BODY_BYTES_MAX + " bytes");
        }
        if (body.length == 0 && !emptyAllowed) {
            throw new ApiError(400, "the body is empty; send " + example);
        }
        return body;
    }

    /**
     * Reads and drops the rest of a refused body, up to {@link #DRAIN_BYTES_MAX} bytes in all: a
     * connection closed with bytes unread is reset, and the reset can reach the client before it
     * has read the 413, so it would see the connection fail instead of the error (seen in
     * {@code DashboardApiTest}). A body beyond the bound is answered without reading it.
     */
    private static void drain(InputStream in) throws IOException {
        byte[] scratch = new byte[8_192];
        long left = DRAIN_BYTES_MAX;
        while (left > 0) {
            int n = in.read(scratch, 0, (int) Math.min(scratch.length, left));
            if (n < 0) {
                return;
            }
            left -= n;
        }
    }

    private void requireRead(Request request) {
        if (!openReads) {
            token.check(request.getHeaders().get(HttpHeader.AUTHORIZATION), "reading the dashboard");
        }
    }

    /** A standby answers 503 with a pointer to the active master (and its dashboard, if announced). */
    private void requireActive() {
        if (master.active()) {
            return;
        }
        Map<String, Object> announced = master.activeAnnouncement();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("role", "standby");
        details.put("masterId", master.masterId());
        details.put("activeMaster", announced.isEmpty() ? null : announced);
        Object dashboard = announced.get("dashboard");
        throw new ApiError(503, "master " + master.masterId() + " is a standby; "
                + (announced.isEmpty() ? "no active master is announced yet, retry shortly"
                : "the active master is " + announced.get("masterId")
                        + (dashboard == null ? "" : ", its dashboard is at " + dashboard)), details);
    }

    private static void requireGet(String method) {
        if (!HttpMethod.GET.is(method) && !HttpMethod.HEAD.is(method)) {
            throw new ApiError(405, "this path takes GET, got " + method, Map.of("allow", "GET"));
        }
    }

    private static long longParameter(Fields query, String name, long absent, long min, long max) {
        String value = query.getValue(name);
        if (value == null) {
            return absent;
        }
        try {
            long n = Long.parseLong(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Answered below.
        }
        throw new ApiError(400, "query parameter " + name + " must be a number in [" + min + ", " + max + "], got '"
                + shorten(value) + "'");
    }

    private static long positiveId(String what, String value) {
        try {
            long n = Long.parseLong(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Answered below.
        }
        throw new ApiError(400, what + " must be a positive number, got '" + shorten(value) + "'");
    }

    private static String shorten(String s) {
        return s.length() <= 100 ? s : s.substring(0, 100) + "...";
    }

    private void writeJson(Response response, Callback callback, int status, Object body) {
        byte[] bytes;
        try {
            bytes = json.writeValueAsBytes(body);
        } catch (IOException e) {
            LOG.error("cannot encode a dashboard answer", e);
            status = 500;
            bytes = "{\"error\":\"the answer could not be encoded; see the master's log\"}".getBytes(StandardCharsets.UTF_8);
        }
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        write(response, callback, status, JSON, bytes);
    }

    private static void writeText(Response response, Callback callback, int status, String contentType, String text) {
        write(response, callback, status, contentType, text.getBytes(StandardCharsets.UTF_8));
    }

    private static void write(Response response, Callback callback, int status, String contentType, byte[] bytes) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, contentType);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}

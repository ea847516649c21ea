package org.elastras.otm.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.DeleteRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.FlushPartitionRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.LoadGlobalTableRequest;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.StatusRequest;
import org.elastras.client.protocol.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;

/**
 * The Jetty handler that puts an {@link OtmService} on HTTP: routes {@code POST /v1/<op>}, reads the
 * body within its bound, decodes it, calls the service on the bounded worker pool and writes the
 * answer; answers {@code GET /health} and {@code GET /ready}. Thread-safe: Jetty calls it from its
 * I/O threads, and it holds only final references.
 *
 * <p>No request can make it throw to Jetty: bad paths, methods, media types, bodies and service
 * errors become error answers ({@link ErrorResponse}, in the request's format, JSON when that is
 * unknown), and an exception the service did not mean is answered {@code 500 INTERNAL} and logged.
 */
final class ProtocolHandler extends Handler.Abstract {

    /** A move operation slower than this here is logged with its parts. */
    private static final long SLOW_MOVE_REQUEST_NANOS = 50_000_000L;
    /**
     * A live move's finish is the whole of the partition's pause at the destination, and its
     * round trip took 29-33 ms more than its handler in the slowest first moves (BENCHMARKS.md,
     * session 24): it is logged from this long.
     */
    private static final long SLOW_FINISH_NANOS = 10_000_000L;
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolHandler.class);

    private final ProtocolEndpoint endpoint;
    /** The wire names of the endpoint's operations, for error messages. */
    private final String operations;
    private final ProtocolCodec codec;
    private final QueuedThreadPool workers;
    private final int workerQueueMax;

    ProtocolHandler(ProtocolEndpoint endpoint, ProtocolCodec codec, QueuedThreadPool workers, int workerQueueMax) {
        this.endpoint = endpoint;
        this.operations = endpoint.operations().stream().map(Operation::wireName).sorted().toList().toString();
        this.codec = codec;
        this.workers = workers;
        this.workerQueueMax = workerQueueMax;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        String method = request.getMethod();
        // Over HTTP/1.1 a request whose body is refused unread leaves the connection unusable.
        boolean http1 = request.getConnectionMetaData().getHttpVersion() != HttpVersion.HTTP_2;
        if ("/health".equals(path) || "/ready".equals(path) || "/metrics".equals(path)) {
            probe(path, method, http1, response, callback);
            return true;
        }
        if (path == null || !path.startsWith(Operation.PATH_PREFIX)) {
            failUnread(http1, response, callback, WireFormat.JSON, new ElasTrasException(ErrorCode.UNKNOWN_OPERATION,
                    "no such path " + quote(path) + "; operations are POST /v1/<op> with <op> one of "
                            + operations + ", probes are GET /health and GET /ready"));
            return true;
        }
        Optional<Operation> op = Operation.byWireName(path.substring(Operation.PATH_PREFIX.length()));
        if (op.isEmpty() || !endpoint.operations().contains(op.get())) {
            failUnread(http1, response, callback, WireFormat.JSON, new ElasTrasException(ErrorCode.UNKNOWN_OPERATION,
                    "unknown operation " + quote(path) + " for the " + endpoint.role() + "; use one of " + operations));
            return true;
        }
        if (!HttpMethod.POST.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            failUnread(http1, response, callback, WireFormat.JSON, new ElasTrasException(ErrorCode.METHOD_NOT_ALLOWED,
                    op.get().path() + " takes POST, got " + method));
            return true;
        }
        String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        Optional<WireFormat> format = WireFormat.fromContentType(contentType);
        if (format.isEmpty()) {
            failUnread(http1, response, callback, WireFormat.JSON, new ElasTrasException(ErrorCode.MALFORMED_REQUEST,
                    "Content-Type " + quote(contentType) + " is not accepted; send "
                            + WireFormat.SMILE.contentType() + " or " + WireFormat.JSON.contentType()));
            return true;
        }
        long declared = request.getLength();
        if (declared > codec.bodyBytesMax()) {
            failUnread(http1, response, callback, format.get(), new ElasTrasException(ErrorCode.LIMIT_EXCEEDED,
                    "request body is " + declared + " bytes; the limit is " + codec.bodyBytesMax()));
            return true;
        }
        // The connection is the client: per-client limits (open transactions) count per connection.
        String client = Request.getRemoteAddr(request) + ":" + Request.getRemotePort(request);
        long arrived = System.nanoTime();
        BoundedBodyReader.read(request, codec.bodyBytesMax(), declared,
                (body, failure) -> onBody(op.get(), format.get(), client, http1, body, failure, response, callback, arrived));
        return true;
    }

    private void onBody(Operation op, WireFormat format, String client, boolean http1, byte[] body, Throwable failure,
                        Response response, Callback callback, long arrived) {
        if (failure instanceof BoundedBodyReader.BodyTooLargeException tooLarge) {
            failUnread(http1, response, callback, format, new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, tooLarge.getMessage()));
            return;
        }
        if (failure != null) {
            callback.failed(failure);
            return;
        }
        try {
            if (workers.getQueueSize() >= workerQueueMax) {
                // Checked first so that a flood is answered without the pool logging each rejection.
                throw new RejectedExecutionException("worker queue full");
            }
            long bodyRead = System.nanoTime();
            workers.execute(() -> serve(op, format, client, body, response, callback, arrived, bodyRead));
        } catch (RejectedExecutionException e) {
            fail(response, callback, format, new ElasTrasException(ErrorCode.OVERLOADED, "the " + endpoint.role() + " is running "
                    + workers.getMaxThreads() + " requests with " + workerQueueMax
                    + " more waiting; back off and retry"));
        }
    }

    private void serve(Operation op, WireFormat format, String client, byte[] body, Response response, Callback callback,
                       long arrived, long bodyRead) {
        long dispatched = System.nanoTime();
        Object answer;
        long decoded;
        try {
            Record request = codec.decodeRequest(op, body, format);
            decoded = System.nanoTime();
            answer = endpoint.invoke(op, request, client);
            if (answer == null) {
                throw new IllegalStateException("the service returned null for " + op.wireName());
            }
        } catch (ElasTrasException e) {
            fail(response, callback, format, e);
            return;
        } catch (Exception | StackOverflowError e) {
            LOG.error("{} failed unexpectedly", op.wireName(), e);
            fail(response, callback, format, new ElasTrasException(ErrorCode.INTERNAL, op.wireName()
                    + " failed inside the " + endpoint.role() + " (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); the outcome is unknown, see the " + endpoint.role() + "'s log"));
            return;
        }
        byte[] bytes;
        try {
            bytes = codec.encode(answer, format);
        } catch (RuntimeException e) {
            LOG.error("cannot encode the answer to {}", op.wireName(), e);
            fail(response, callback, format, new ElasTrasException(ErrorCode.INTERNAL, "the answer to "
                    + op.wireName() + " could not be encoded; see the " + endpoint.role() + "'s log"));
            return;
        }
        long encoded = System.nanoTime();
        write(response, callback, 200, format, bytes);
        if (Operation.MOVES.contains(op)
                && encoded - arrived > (op == Operation.FINISH_INCOMING ? SLOW_FINISH_NANOS : SLOW_MOVE_REQUEST_NANOS)) {
            // A move's partition is unavailable for as long as these take: say where the time went.
            LOG.warn("slow {}: {} ms here (body {} ms, queued for a worker {} ms, decode {} ms, service and encode {} ms)",
                    op.wireName(), ms(encoded - arrived), ms(bodyRead - arrived), ms(dispatched - bodyRead),
                    ms(decoded - dispatched), ms(encoded - decoded));
        }
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    private void probe(String path, String method, boolean http1, Response response, Callback callback) {
        if (!HttpMethod.GET.is(method)) {
            response.getHeaders().put(HttpHeader.ALLOW, "GET");
            failUnread(http1, response, callback, WireFormat.JSON, new ElasTrasException(ErrorCode.METHOD_NOT_ALLOWED,
                    path + " takes GET, got " + method));
            return;
        }
        if ("/metrics".equals(path)) {
            String metrics;
            try {
                metrics = endpoint.metrics();
            } catch (RuntimeException e) {
                LOG.error("metrics() failed", e);
                fail(response, callback, WireFormat.JSON, new ElasTrasException(ErrorCode.INTERNAL,
                        "the metrics could not be gathered; see the " + endpoint.role() + "'s log"));
                return;
            }
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
            response.write(true, ByteBuffer.wrap(metrics.getBytes(StandardCharsets.UTF_8)), callback);
            return;
        }
        boolean up = "/health".equals(path) || isServing();
        byte[] text = (up ? "ok\n" : "not serving\n").getBytes(StandardCharsets.US_ASCII);
        response.setStatus(up ? 200 : 503);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=us-ascii");
        response.write(true, ByteBuffer.wrap(text), callback);
    }

    private boolean isServing() {
        try {
            return endpoint.ready();
        } catch (RuntimeException e) {
            LOG.error("ready() failed; answering not ready", e);
            return false;
        }
    }

    private static String quote(String s) {
        if (s == null) {
            return "(none)";
        }
        return "'" + (s.length() <= 200 ? s : s.substring(0, 200) + "...") + "'";
    }

    /**
     * Answers an error without having read (all of) the request body. Over HTTP/1.1 the rest of
     * the body would be read as the next request, so the connection is closed after the answer
     * and says so, and a client never reuses it (HTTP/2 streams are independent: nothing to do).
     */
    private void failUnread(boolean http1, Response response, Callback callback, WireFormat format, ElasTrasException e) {
        if (http1) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
        fail(response, callback, format, e);
    }

    private void fail(Response response, Callback callback, WireFormat format, ElasTrasException e) {
        byte[] bytes = codec.encode(ErrorResponse.of(e), format);
        write(response, callback, e.httpStatus(), format, bytes);
    }

    private static void write(Response response, Callback callback, int status, WireFormat format, byte[] bytes) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, format.contentType());
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}

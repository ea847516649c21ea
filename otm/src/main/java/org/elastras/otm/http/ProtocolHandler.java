package org.elastras.otm.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
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
import java.util.Optional;

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

    private static final Logger LOG = LoggerFactory.getLogger(ProtocolHandler.class);

    private final ProtocolEndpoint endpoint;
    /** The wire names of the endpoint's operations, for error messages. */
    private final String operations;
    private final ProtocolCodec codec;
    private final ProtocolCalls calls;

    ProtocolHandler(ProtocolCalls calls) {
        this.calls = calls;
        this.endpoint = calls.endpoint();
        this.operations = endpoint.operations().stream().map(Operation::wireName).sorted().toList().toString();
        this.codec = calls.codec();
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
        long bodyRead = System.nanoTime();
        ElasTrasException refused = calls.dispatch(() -> {
            ProtocolCalls.Answer answer = calls.run(op, format, client, body, arrived, bodyRead);
            write(response, callback, answer.status(), format, answer.bytes());
        });
        if (refused != null) {
            fail(response, callback, format, refused);
        }
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
        ProtocolCalls.Answer answer = calls.error(format, e);
        write(response, callback, answer.status(), format, answer.bytes());
    }

    private static void write(Response response, Callback callback, int status, WireFormat format, byte[] bytes) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, format.contentType());
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }
}

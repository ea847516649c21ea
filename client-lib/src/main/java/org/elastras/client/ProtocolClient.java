package org.elastras.client;

import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.CompletableResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.WireFormat;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The transport of the protocol to one server (an OTM or the master): any operation, with Smile
 * bodies, over the framed transport ({@link FrameChannel}, the default) or HTTP/2 cleartext (h2c by
 * prior knowledge), as {@link OtmClientConfig#transport()} says. Thread-safe: any number of threads
 * may call it at once, and their calls are multiplexed on one connection (more connections are not
 * opened; over HTTP/2, calls beyond the server's stream limit wait in a bounded queue, over frames
 * at most {@code requestsQueuedMax} calls are in flight).
 *
 * <p>Every call either returns the operation's response or throws {@link ElasTrasException}:
 * <ul>
 *   <li>the server's error, with its {@link ErrorCode}, message and retry flag;</li>
 *   <li>{@link ErrorCode#UNREACHABLE} when the request never reached the server (connection refused,
 *       unknown host, or a failure before the request was sent): safe to retry anywhere;</li>
 *   <li>{@link ErrorCode#OUTCOME_UNKNOWN} when the call failed or timed out after the request was
 *       sent: it may or may not have taken effect;</li>
 *   <li>{@link ErrorCode#MALFORMED_REQUEST}/{@link ErrorCode#LIMIT_EXCEEDED} before anything is sent,
 *       for a request the server would refuse (the records check themselves; the body bound is checked here).</li>
 * </ul>
 * Every call is bounded by {@link OtmClientConfig#requestTimeoutMs()}. {@link OtmClient} and
 * {@link MasterClient} put one method per operation on it.
 */
public final class ProtocolClient implements AutoCloseable {

    /** Shorter than the servers' idle timeout (30 s), so the client closes an idle connection first. */
    static final long CLIENT_IDLE_TIMEOUT_MS = 20_000;

    /** Grace past the request timeout before the caller stops waiting for Jetty to report it, in milliseconds. */
    private static final long WAIT_SLACK_MS = 1_000;

    private final URI base;
    private final OtmClientConfig config;
    private final ProtocolCodec codec;
    /** Null over HTTP/2. */
    private final FrameChannel frames;
    /** Null over frames. */
    private final HttpClient http;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Connects (lazily, on the first call) to the server at {@code host:port}.
     *
     * @throws IllegalStateException if the HTTP client cannot start, which only a broken environment causes
     */
    public ProtocolClient(String host, int port, OtmClientConfig config) {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host is missing; give the OTM's address");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port must be 1 to 65535, got " + port);
        }
        this.config = config;
        this.base = URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port);
        this.codec = new ProtocolCodec(config.responseBytesMax(), ProtocolCodec.NESTING_DEPTH_MAX_DEFAULT);
        if (config.transport() == OtmClientConfig.Transport.FRAMES) {
            this.frames = new FrameChannel(host, port, config);
            this.http = null;
            return;
        }
        this.frames = null;
        HTTP2Client h2 = new HTTP2Client();
        h2.setUseALPN(false);
        QueuedThreadPool threads = new QueuedThreadPool(config.threadsMax(), Math.min(4, config.threadsMax()));
        threads.setName("elastras-client-" + port);
        threads.setDaemon(true);
        this.http = new HttpClient(new HttpClientTransportOverHTTP2(h2));
        http.setExecutor(threads);
        http.setConnectTimeout(config.connectTimeoutMs());
        // Close idle connections before the server does (its default is 30 s): a request racing the
        // server's close would otherwise fail after it was "sent", as an unknown outcome, though
        // the server never saw it.
        http.setIdleTimeout(CLIENT_IDLE_TIMEOUT_MS);
        http.setMaxConnectionsPerDestination(1);
        http.setMaxRequestsQueuedPerDestination(config.requestsQueuedMax());
        http.setFollowRedirects(false);
        http.setUserAgentField(null);
        try {
            http.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the HTTP/2 client for " + base, e);
        }
    }

    /** Whether {@link #close} was called. */
    boolean isClosed() {
        return closed.get();
    }

    /** The server's base address, {@code http://host:port}. */
    public URI address() {
        return base;
    }

    /**
     * Sends one operation and returns its answer (see the class comment for the errors).
     *
     * @param responseType {@code op.responseType()}
     */
    public <R> R call(Operation op, Record request, Class<R> responseType) {
        return send(op, encode(op, request), responseType);
    }

    /**
     * The body {@link #call} would send for {@code request}.
     *
     * @throws ElasTrasException LIMIT_EXCEEDED if it is larger than the server takes; nothing was sent
     */
    byte[] encode(Operation op, Record request) {
        if (closed.get()) {
            throw new IllegalStateException("this client of " + base + " is closed");
        }
        if (request == null) {
            throw new IllegalArgumentException(op.wireName() + " request is null");
        }
        byte[] body = codec.encode(request, WireFormat.SMILE);
        if (body.length > codec.bodyBytesMax()) {
            throw new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op.wireName() + " request encodes to "
                    + body.length + " bytes; the limit is " + codec.bodyBytesMax() + "; send less");
        }
        return body;
    }

    /** Sends a body made by {@link #encode} and returns the answer, as {@link #call}. */
    <R> R send(Operation op, byte[] body, Class<R> responseType) {
        if (closed.get()) {
            throw new IllegalStateException("this client of " + base + " is closed");
        }
        if (frames != null) {
            CompletableFuture<FrameChannel.Reply> reply = frames.send(op, body);
            try {
                return decode(op, reply.get(config.requestTimeoutMs() + WAIT_SLACK_MS, TimeUnit.MILLISECONDS), responseType);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, op.wireName() + " to " + base
                        + " was interrupted while waiting; it may or may not have taken effect", e);
            } catch (TimeoutException e) {
                throw timedOut(op, e);
            } catch (ExecutionException e) {
                throw e.getCause() instanceof ElasTrasException known ? known
                        : new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, op.wireName() + " to " + base + " failed ("
                                + e.getCause() + "); it may or may not have taken effect", e.getCause());
            }
        }
        AtomicBoolean sent = new AtomicBoolean();
        Request http = this.http.newRequest(base.resolve(op.path()))
                .method(HttpMethod.POST)
                .timeout(config.requestTimeoutMs(), TimeUnit.MILLISECONDS)
                .accept(WireFormat.SMILE.contentType())
                .body(new BytesRequestContent(WireFormat.SMILE.contentType(), body))
                .onRequestCommit(r -> sent.set(true));
        CompletableFuture<ContentResponse> future = new CompletableResponseListener(http, config.responseBytesMax()).send();
        ContentResponse response;
        try {
            response = future.get(config.requestTimeoutMs() + WAIT_SLACK_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            http.abort(e);
            throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, op.wireName() + " to " + base
                    + " was interrupted while waiting; it may or may not have taken effect", e);
        } catch (TimeoutException e) {
            http.abort(e);
            throw timedOut(op, e);
        } catch (ExecutionException e) {
            throw transportFailure(op, e.getCause(), sent.get());
        }
        return decode(op, response, responseType);
    }

    /**
     * Sends a body made by {@link #encode} without waiting: the future completes, on one of the
     * client's I/O threads, with the answer or with the {@link ElasTrasException} {@link #call}
     * would throw. Jetty's request timeout ({@link OtmClientConfig#requestTimeoutMs()}) bounds it.
     * Whoever completes on it must not block that thread.
     */
    <R> CompletableFuture<R> sendAsync(Operation op, byte[] body, Class<R> responseType) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new ElasTrasException(ErrorCode.UNREACHABLE, op.wireName()
                    + ": this client of " + base + " is closed; the request was not sent"));
        }
        if (frames != null) {
            return frames.send(op, body).thenApply(reply -> decode(op, reply, responseType));
        }
        AtomicBoolean sent = new AtomicBoolean();
        Request http = this.http.newRequest(base.resolve(op.path()))
                .method(HttpMethod.POST)
                .timeout(config.requestTimeoutMs(), TimeUnit.MILLISECONDS)
                .accept(WireFormat.SMILE.contentType())
                .body(new BytesRequestContent(WireFormat.SMILE.contentType(), body))
                .onRequestCommit(r -> sent.set(true));
        CompletableFuture<R> answer = new CompletableFuture<>();
        new CompletableResponseListener(http, config.responseBytesMax()).send().whenComplete((response, failure) -> {
            try {
                if (failure != null) {
                    Throwable cause = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null
                            ? failure.getCause() : failure;
                    answer.completeExceptionally(transportFailure(op, cause, sent.get()));
                } else {
                    answer.complete(decode(op, response, responseType));
                }
            } catch (RuntimeException e) {
                answer.completeExceptionally(e);
            }
        });
        return answer;
    }

    private <R> R decode(Operation op, FrameChannel.Reply reply, Class<R> responseType) {
        if (reply.ok()) {
            return decodeAnswer(op, reply.body(), WireFormat.SMILE, responseType);
        }
        ErrorResponse error;
        try {
            error = codec.decode(reply.body(), ErrorResponse.class, WireFormat.SMILE, "error");
        } catch (ElasTrasException undecodable) {
            throw new ElasTrasException(ErrorCode.INTERNAL, op.wireName() + " to " + base
                    + " was refused with an error this client cannot decode: " + undecodable.getMessage(), undecodable);
        }
        throw error.toException();
    }

    private <R> R decodeAnswer(Operation op, byte[] content, WireFormat format, Class<R> responseType) {
        try {
            return codec.decode(content, responseType, format, op.wireName() + " response");
        } catch (ElasTrasException e) {
            throw new ElasTrasException(ErrorCode.INTERNAL, op.wireName() + " to " + base
                    + " succeeded but its answer could not be decoded: " + e.getMessage(), e);
        }
    }

    private <R> R decode(Operation op, ContentResponse response, Class<R> responseType) {
        int status = response.getStatus();
        byte[] content = response.getContent();
        WireFormat format = WireFormat.fromContentType(response.getHeaders().get(HttpHeader.CONTENT_TYPE)).orElse(null);
        if (status == 200) {
            if (format == null) {
                throw new ElasTrasException(ErrorCode.INTERNAL, op.wireName() + " to " + base
                        + " was answered 200 with Content-Type " + response.getHeaders().get(HttpHeader.CONTENT_TYPE)
                        + ", which is not the protocol's; is that an ElasTraS server?");
            }
            return decodeAnswer(op, content, format, responseType);
        }
        if (format != null) {
            ErrorResponse error = null;
            try {
                error = codec.decode(content, ErrorResponse.class, format, "error");
            } catch (ElasTrasException undecodable) {
                // Not an error body this client understands (an unknown code from a newer server, or
                // not ours at all): reported below from the status and the raw text.
            }
            if (error != null) {
                throw error.toException();
            }
        }
        String text = new String(content, 0, Math.min(content.length, 500), StandardCharsets.UTF_8);
        throw new ElasTrasException(status == 503 ? ErrorCode.NOT_SERVING : ErrorCode.INTERNAL, op.wireName()
                + " to " + base + " was answered HTTP " + status + " without a protocol error body: " + text);
    }

    private ElasTrasException timedOut(Operation op, Throwable cause) {
        return new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, op.wireName() + " to " + base + " got no answer within "
                + config.requestTimeoutMs() + " ms; it may or may not have taken effect", cause);
    }

    private ElasTrasException transportFailure(Operation op, Throwable cause, boolean sent) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
                return new ElasTrasException(ErrorCode.UNREACHABLE, op.wireName() + ": cannot connect to " + base
                        + " (" + t + "); the request was not sent", cause);
            }
            if (t instanceof TimeoutException) {
                return sent ? timedOut(op, cause) : new ElasTrasException(ErrorCode.UNREACHABLE, op.wireName()
                        + " to " + base + " could not be sent within " + config.requestTimeoutMs() + " ms", cause);
            }
            if (t instanceof IllegalArgumentException && String.valueOf(t.getMessage()).contains("capacity exceeded")) {
                return new ElasTrasException(ErrorCode.LIMIT_EXCEEDED, op.wireName() + " to " + base
                        + " was answered with more than " + config.responseBytesMax()
                        + " bytes; it was processed but the answer was dropped (ask for less)", cause);
            }
        }
        if (!sent) {
            return new ElasTrasException(ErrorCode.UNREACHABLE, op.wireName() + " to " + base
                    + " failed before the request was sent (" + cause + ")", cause);
        }
        return new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, op.wireName() + " to " + base
                + " failed after the request was sent (" + cause + "); it may or may not have taken effect", cause);
    }

    /** Closes the connection; calls in flight fail. Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            if (frames != null) {
                frames.close();
                return;
            }
            try {
                http.stop();
            } catch (Exception e) {
                throw new IllegalStateException("the HTTP/2 client of " + base + " did not stop cleanly", e);
            }
        }
    }
}

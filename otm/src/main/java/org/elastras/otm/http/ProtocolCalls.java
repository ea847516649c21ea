package org.elastras.otm.http;

import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.WireFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs protocol calls for both transports of a {@link ProtocolServer} (HTTP in
 * {@link ProtocolHandler}, frames in {@link FrameConnection}): hands each to the bounded worker
 * pool, decodes its body, calls the endpoint and encodes the answer or the error. Thread-safe: it
 * holds only final references.
 *
 * <p>No request can make it throw: service errors become error answers, and an exception the
 * service did not mean is answered {@code INTERNAL} and logged.
 */
final class ProtocolCalls {

    /** A move operation slower than this here is logged with its parts. */
    private static final long SLOW_MOVE_REQUEST_NANOS = 50_000_000L;
    /**
     * A live move's finish is the whole of the partition's pause at the destination, and its
     * round trip took 29-33 ms more than its handler in the slowest first moves (BENCHMARKS.md,
     * session 24): it is logged from this long.
     */
    private static final long SLOW_FINISH_NANOS = 10_000_000L;
    private static final Logger LOG = LoggerFactory.getLogger(ProtocolCalls.class);

    /**
     * An encoded answer: the response with {@code status} 200, else an {@link ErrorResponse} with
     * the error's HTTP status.
     */
    record Answer(int status, byte[] bytes) {
        boolean ok() {
            return status == 200;
        }
    }

    private final ProtocolEndpoint endpoint;
    private final ProtocolCodec codec;
    private final QueuedThreadPool workers;
    private final int workerQueueMax;

    ProtocolCalls(ProtocolEndpoint endpoint, ProtocolCodec codec, QueuedThreadPool workers, int workerQueueMax) {
        this.endpoint = endpoint;
        this.codec = codec;
        this.workers = workers;
        this.workerQueueMax = workerQueueMax;
    }

    ProtocolEndpoint endpoint() {
        return endpoint;
    }

    ProtocolCodec codec() {
        return codec;
    }

    /**
     * Runs {@code task} on a worker.
     *
     * @return the OVERLOADED error to answer instead when the worker queue is full, else null
     */
    ElasTrasException dispatch(Runnable task) {
        try {
            if (workers.getQueueSize() >= workerQueueMax) {
                // Checked first so that a flood is answered without the pool logging each rejection.
                throw new RejectedExecutionException("worker queue full");
            }
            workers.execute(task);
            return null;
        } catch (RejectedExecutionException e) {
            return new ElasTrasException(ErrorCode.OVERLOADED, "the " + endpoint.role() + " is running "
                    + workers.getMaxThreads() + " requests with " + workerQueueMax + " more waiting; back off and retry");
        }
    }

    /**
     * Runs one call on the calling (worker) thread.
     *
     * @param arrived when the request arrived, for the slow-move log
     * @param bodyRead when its body had been read
     */
    Answer run(Operation op, WireFormat format, String client, byte[] body, long arrived, long bodyRead) {
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
            return error(format, e);
        } catch (Exception | StackOverflowError e) {
            LOG.error("{} failed unexpectedly", op.wireName(), e);
            return error(format, new ElasTrasException(ErrorCode.INTERNAL, op.wireName()
                    + " failed inside the " + endpoint.role() + " (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); the outcome is unknown, see the " + endpoint.role() + "'s log"));
        }
        byte[] bytes;
        try {
            bytes = codec.encode(answer, format);
        } catch (RuntimeException e) {
            LOG.error("cannot encode the answer to {}", op.wireName(), e);
            return error(format, new ElasTrasException(ErrorCode.INTERNAL, "the answer to "
                    + op.wireName() + " could not be encoded; see the " + endpoint.role() + "'s log"));
        }
        long encoded = System.nanoTime();
        if (Operation.MOVES.contains(op)
                && encoded - arrived > (op == Operation.FINISH_INCOMING ? SLOW_FINISH_NANOS : SLOW_MOVE_REQUEST_NANOS)) {
            // A move's partition is unavailable for as long as these take: say where the time went.
            LOG.warn("slow {}: {} ms here (body {} ms, queued for a worker {} ms, decode {} ms, service and encode {} ms)",
                    op.wireName(), ms(encoded - arrived), ms(bodyRead - arrived), ms(dispatched - bodyRead),
                    ms(decoded - dispatched), ms(encoded - decoded));
        }
        return new Answer(200, bytes);
    }

    /** The encoded error answer for {@code e}. */
    Answer error(WireFormat format, ElasTrasException e) {
        return new Answer(e.httpStatus(), codec.encode(ErrorResponse.of(e), format));
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }
}

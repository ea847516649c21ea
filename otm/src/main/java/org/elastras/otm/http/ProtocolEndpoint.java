package org.elastras.otm.http;

import java.util.Set;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.Operation;

/**
 * What a {@link ProtocolServer} serves: the OTM ({@link OtmEndpoint}) or the master. It names the
 * operations it answers (others get UNKNOWN_OPERATION without reaching it) and runs each decoded
 * request. Implementations are thread-safe: {@link #invoke} is called concurrently from the server's
 * bounded worker pool and may block (bounded).
 */
public interface ProtocolEndpoint {

    /** Who answers, for error messages and thread names: "OTM", "master". */
    String role();

    /** The operations this endpoint answers. */
    Set<Operation> operations();

    /**
     * Answers {@code GET /metrics}: the endpoint's counters in the Prometheus text format (version
     * 0.0.4), one sample per line. Must not block; empty if it has none.
     */
    default String metrics() {
        return "";
    }

    /** Answers {@code GET /ready}: whether requests are served now. Must not block. */
    boolean ready();

    /**
     * Runs one request.
     *
     * @param op one of {@link #operations()}
     * @param request the decoded request, of {@code op.requestType()}
     * @param client who asks: the connection's remote address and port
     * @return the response record, of {@code op.responseType()}; never null
     * @throws ElasTrasException for every error a client can cause (it must change nothing)
     */
    Object invoke(Operation op, Record request, String client) throws ElasTrasException;
}

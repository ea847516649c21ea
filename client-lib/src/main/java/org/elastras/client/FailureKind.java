package org.elastras.client;

import org.elastras.client.protocol.ErrorCode;

/**
 * What a failed request means for routing and retrying, by its {@link ErrorCode}. Immutable.
 *
 * <p>The protocol has no {@code MOVED} code: a partition that moved is answered {@code NOT_OWNER}
 * by its old owner, and a dead owner shows as {@code UNREACHABLE} (never sent) or
 * {@code OUTCOME_UNKNOWN} (sent, no answer).
 */
enum FailureKind {
    /**
     * The request was not executed and the location is wrong or the owner is gone: drop the cached
     * location (and the connection, for an unreachable OTM), look up again, retry.
     */
    REROUTE,
    /** Not executed, the location is fine: back off and retry there (or, for a transaction, re-run it). */
    BACK_OFF,
    /** The request was sent and may have taken effect: resend only what is safe to repeat. */
    OUTCOME_UNKNOWN,
    /** Retrying cannot help (bad input, unknown names, a rolled-back procedure, a server bug). */
    PERMANENT;

    static FailureKind of(ErrorCode code) {
        return switch (code) {
            case NOT_OWNER, NOT_SERVING, UNREACHABLE -> REROUTE;
            case OVERLOADED, CONFLICT, SERIALIZATION_FAILURE, TRANSACTION_TIMEOUT -> BACK_OFF;
            case OUTCOME_UNKNOWN -> OUTCOME_UNKNOWN;
            default -> PERMANENT;
        };
    }
}

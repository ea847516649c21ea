package org.elastras.experiments.torture;

import org.elastras.client.OutcomeUnknownException;
import org.elastras.client.RetriesExhaustedException;
import org.elastras.client.TransactionAbortedException;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.experiments.history.Outcome;

/**
 * What a failed request tells about its transaction's fate, per docs/client.md. Only errors that
 * the client documents as "not executed" count as {@link Outcome#FAIL}; anything else is
 * {@link Outcome#UNKNOWN}, because calling a transaction that committed FAIL would make the
 * checker report a false aborted read. Stateless.
 */
final class ClientOutcome {

    private ClientOutcome() {
    }

    static Outcome of(RuntimeException failure) {
        if (failure instanceof OutcomeUnknownException) {
            return Outcome.UNKNOWN;
        }
        if (failure instanceof TransactionAbortedException) {
            return Outcome.FAIL; // Ended before or at commit without committing (the client's contract).
        }
        if (failure instanceof RetriesExhaustedException exhausted) {
            // Retries stop on errors of requests that did not run; a lost answer is thrown at once
            // as OutcomeUnknownException and never retried (call, commit).
            return exhausted.code() == ErrorCode.OUTCOME_UNKNOWN || exhausted.code() == ErrorCode.INTERNAL ? Outcome.UNKNOWN
                    : Outcome.FAIL;
        }
        if (failure instanceof ElasTrasException e && e.code() == ErrorCode.PROCEDURE_ABORTED) {
            return Outcome.FAIL;
        }
        return Outcome.UNKNOWN;
    }

    /** A short name of the failure for counts: the error code, or the exception's class. */
    static String name(RuntimeException failure) {
        String kind = failure instanceof OutcomeUnknownException ? "OutcomeUnknown"
                : failure instanceof TransactionAbortedException ? "Aborted"
                : failure instanceof RetriesExhaustedException ? "RetriesExhausted" : null;
        if (failure instanceof ElasTrasException e) {
            return (kind == null ? "" : kind + ":") + e.code();
        }
        return failure.getClass().getSimpleName();
    }
}

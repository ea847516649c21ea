package org.elastras.experiments.history;

import java.util.List;
import java.util.Objects;

/**
 * One transaction of a history: who ran it, what it did and saw, and how it ended. Immutable.
 *
 * @param id                unique within the history
 * @param process           the client session that ran it; a session runs one transaction at a time
 * @param ops               the operations in the order issued (for a FAIL or UNKNOWN transaction:
 *                          every write it attempted, reads possibly unobserved)
 * @param outcome           what the client learned
 * @param invokeNanos       when the client started it, on the recorder's clock
 * @param completeNanos     when the client learned the outcome (or gave up), on the same clock
 * @param snapshotTimestamp the snapshot the server says it read at, or null if not reported
 * @param commitTimestamp   the CTS the server says it committed at, or null if not reported
 */
public record Transaction(long id, int process, List<MicroOp> ops, Outcome outcome, long invokeNanos, long completeNanos,
        Long snapshotTimestamp, Long commitTimestamp) {

    /** Most operations one transaction may hold. */
    public static final int OPS_MAX = 100_000;

    public Transaction {
        if (id < 0) {
            throw new IllegalArgumentException("transaction id must be >= 0, got " + id);
        }
        if (process < 0) {
            throw new IllegalArgumentException("process must be >= 0, got " + process + " (transaction " + id + ")");
        }
        Objects.requireNonNull(ops, "ops");
        Objects.requireNonNull(outcome, "outcome");
        ops = List.copyOf(ops);
        if (ops.isEmpty() || ops.size() > OPS_MAX) {
            throw new IllegalArgumentException("transaction " + id + " must have 1 to " + OPS_MAX + " ops, got " + ops.size());
        }
        if (completeNanos < invokeNanos) {
            throw new IllegalArgumentException("transaction " + id + " completes (" + completeNanos + ") before it is invoked (" + invokeNanos + ")");
        }
        if (snapshotTimestamp != null && snapshotTimestamp < 0) {
            throw new IllegalArgumentException("transaction " + id + " has a negative snapshot timestamp " + snapshotTimestamp);
        }
        if (commitTimestamp != null && commitTimestamp < 0) {
            throw new IllegalArgumentException("transaction " + id + " has a negative commit timestamp " + commitTimestamp);
        }
        if (outcome == Outcome.OK) {
            for (MicroOp op : ops) {
                boolean unobserved = op instanceof MicroOp.ReadList r && !r.observed() || op instanceof MicroOp.ReadRegister r2 && !r2.observed();
                if (unobserved) {
                    throw new IllegalArgumentException("committed transaction " + id + " has an unobserved read: " + op);
                }
            }
        }
    }

    /** A transaction without server timestamps. */
    public static Transaction of(long id, int process, Outcome outcome, long invokeNanos, long completeNanos, List<MicroOp> ops) {
        return new Transaction(id, process, ops, outcome, invokeNanos, completeNanos, null, null);
    }

    /** True if it wrote or appended anything. */
    public boolean writes() {
        for (MicroOp op : ops) {
            if (op.isWrite()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("T").append(id).append(" (process ").append(process).append(", ").append(outcome);
        if (snapshotTimestamp != null) {
            text.append(", snapshot ").append(snapshotTimestamp);
        }
        if (commitTimestamp != null) {
            text.append(", cts ").append(commitTimestamp);
        }
        text.append("): ");
        for (int i = 0; i < ops.size(); i++) {
            text.append(i == 0 ? "" : "; ").append(ops.get(i));
        }
        return text.toString();
    }
}

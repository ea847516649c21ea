package org.elastras.master.balance;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The master's record of balancer moves: those under way, and when each recent one ended (for
 * cooldowns). What {@link BalanceInput} takes for {@code movesInFlight} and {@code lastMovedAtMs}.
 * Not thread-safe: the master's event loop owns it. Bounded: moves in flight are bounded by the
 * policy that starts them, and an end time is forgotten once older than {@code retainMs}.
 */
public final class MoveLedger {

    private final long retainMs;
    private final TreeMap<Long, Move> inFlight = new TreeMap<>();
    private final TreeMap<Long, Long> endedAtMs = new TreeMap<>();

    /** @param retainMs how long an end time is kept: at least the policy's cooldown */
    public MoveLedger(long retainMs) {
        if (retainMs < 0) {
            throw new IllegalArgumentException("retainMs must be >= 0, got " + retainMs);
        }
        this.retainMs = retainMs;
    }

    /** A move was started. */
    public void started(Move move) {
        if (inFlight.containsKey(move.partitionId())) {
            throw new IllegalStateException("partition " + move.partitionId() + " is already moving: "
                    + inFlight.get(move.partitionId()).describe());
        }
        inFlight.put(move.partitionId(), move);
    }

    /**
     * The move of {@code partitionId} ended at {@code nowMs}, done or failed (a failed move cools
     * down too, so it is not retried at once). Returns the move, or null if none was under way.
     */
    public Move ended(long partitionId, long nowMs) {
        Move move = inFlight.remove(partitionId);
        if (move != null) {
            endedAtMs.put(partitionId, nowMs);
        }
        return move;
    }

    /** Forgets moves from or to {@code otmId} (it was lost: the master's recovery places its partitions). */
    public void otmLost(String otmId, long nowMs) {
        for (Move m : inFlight.values().stream().filter(m -> m.fromOtm().equals(otmId) || m.toOtm().equals(otmId)).toList()) {
            ended(m.partitionId(), nowMs);
        }
    }

    public SortedMap<Long, Move> inFlight() {
        return Collections.unmodifiableSortedMap(new TreeMap<>(inFlight));
    }

    /** End times of the moves that ended within {@code retainMs} before {@code nowMs}; older ones are forgotten. */
    public SortedMap<Long, Long> lastMovedAtMs(long nowMs) {
        endedAtMs.values().removeIf(at -> nowMs - at >= retainMs);
        return Collections.unmodifiableSortedMap(new TreeMap<>(endedAtMs));
    }
}

package org.elastras.master.balance;

import java.util.Collections;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything a {@link BalancePolicy} decides from, taken by the master at one moment. Immutable.
 *
 * @param nowMs the master's clock
 * @param load the load window's view at {@code nowMs}
 * @param partitions every partition the master knows, by id, with its placement
 * @param liveOtms the OTMs that are live now
 * @param drainingOtms live OTMs being drained: nothing moves to them, everything moves off
 * @param movesInFlight moves started and not finished, by partition id
 * @param lastMovedAtMs when each recently moved partition's last move ended (see {@link MoveLedger})
 * @param otmsBeingAdded OTMs asked of the provisioner that have not joined yet
 */
public record BalanceInput(long nowMs, LoadView load, SortedMap<Long, Placement> partitions, SortedSet<String> liveOtms,
        SortedSet<String> drainingOtms, SortedMap<Long, Move> movesInFlight, SortedMap<Long, Long> lastMovedAtMs,
        int otmsBeingAdded) {

    public BalanceInput {
        if (load == null || partitions == null || liveOtms == null || drainingOtms == null || movesInFlight == null
                || lastMovedAtMs == null) {
            throw new IllegalArgumentException("load, partitions, OTMs, drains, moves and move times are required");
        }
        if (otmsBeingAdded < 0) {
            throw new IllegalArgumentException("otmsBeingAdded must be >= 0, got " + otmsBeingAdded);
        }
        partitions = Collections.unmodifiableSortedMap(new TreeMap<>(partitions));
        liveOtms = Collections.unmodifiableSortedSet(new TreeSet<>(liveOtms));
        drainingOtms = Collections.unmodifiableSortedSet(new TreeSet<>(drainingOtms));
        movesInFlight = Collections.unmodifiableSortedMap(new TreeMap<>(movesInFlight));
        lastMovedAtMs = Collections.unmodifiableSortedMap(new TreeMap<>(lastMovedAtMs));
    }
}

package org.elastras.client.protocol;

import java.util.List;

/**
 * What an OTM tells the timestamp service once per period (inside its heartbeat). Immutable;
 * travels in JSON (null lists read as empty).
 *
 * <p>The OTM side of the protocol: when a reply brings a new range the OTM switches to it at once;
 * the CTSs it had not taken from its previous range go into {@code unusedRanges} of its next
 * report. A commit reports its CTS in {@code readableRanges} once it is durable (logged and synced)
 * and applied to the partition stores, or in {@code unusedRanges} if it failed before logging.
 * Adjacent CTSs should be coalesced into one range. At most one exchange per OTM is in flight.
 *
 * @param latestRangeReceived the last range a reply brought (null if none yet); a master that
 *     issued a newer one learns that its reply was lost and sends that range again
 * @param takenCount CTSs taken from {@code latestRangeReceived} so far (0 if there is none): sizes
 *     the next range
 * @param readableRanges CTSs that became durable and readable since the last accepted report
 * @param unusedRanges CTSs that will never be used, since the last accepted report
 * @param owedRanges every CTS this OTM received and has not reported in an accepted report yet.
 *     Read only at the first exchange with a master (after a master failover, so the new master
 *     learns who owes what); small, so simply sent every time
 */
public record TimestampReport(CtsRange latestRangeReceived, long takenCount, List<CtsRange> readableRanges,
        List<CtsRange> unusedRanges, List<CtsRange> owedRanges) {

    public TimestampReport {
        long receivedSizeCts = latestRangeReceived == null ? 0 : latestRangeReceived.sizeCts();
        if (takenCount < 0 || takenCount > receivedSizeCts) {
            throw new IllegalArgumentException("takenCount " + takenCount + " is impossible for the latest range "
                    + latestRangeReceived + " (must be in [0, its size])");
        }
        readableRanges = readableRanges == null ? List.of() : List.copyOf(readableRanges);
        unusedRanges = unusedRanges == null ? List.of() : List.copyOf(unusedRanges);
        owedRanges = owedRanges == null ? List.of() : List.copyOf(owedRanges);
    }

    /** The report of an OTM that has nothing to say yet (its first exchange with a new cluster). */
    public static TimestampReport first() {
        return new TimestampReport(null, 0, List.of(), List.of(), List.of());
    }
}

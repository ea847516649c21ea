package org.elastras.client.protocol;

import java.util.List;

/**
 * An OTM's load as its heartbeat reports it. Counters count from the OTM process's start, so the
 * master turns two reports into rates and a lost report loses no counts. Immutable.
 *
 * @param processCpuLoad the OTM process's recent CPU use, 0..1 of the machine, or -1 if unknown
 * @param heapUsedBytes Java heap in use
 * @param heapMaxBytes the Java heap's limit
 * @param partitions every partition the OTM serves, with its counters
 */
public record OtmLoad(double processCpuLoad, long heapUsedBytes, long heapMaxBytes, List<PartitionLoad> partitions) {

    /** Most partitions one report may list: an OTM serves at most this many. */
    public static final int PARTITIONS_MAX = 100_000;

    public OtmLoad {
        if (!(processCpuLoad == -1 || (processCpuLoad >= 0 && processCpuLoad <= 1))) {
            throw Fields.malformed("heartbeat", "processCpuLoad must be in [0, 1] or -1, got " + processCpuLoad);
        }
        if (heapUsedBytes < 0 || heapMaxBytes < 0) {
            throw Fields.malformed("heartbeat", "heap sizes must be >= 0, got " + heapUsedBytes + " and " + heapMaxBytes);
        }
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
        if (partitions.size() > PARTITIONS_MAX) {
            throw Fields.malformed("heartbeat", partitions.size() + " partitions; at most " + PARTITIONS_MAX);
        }
    }
}

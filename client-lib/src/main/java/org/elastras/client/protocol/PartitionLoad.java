package org.elastras.client.protocol;

/**
 * One served partition's load in a heartbeat ({@link OtmLoad}). The counters count from when this
 * OTM opened the partition (they start again at 0 if it closes and reopens it), so the master
 * turns two reports into rates and a lost report loses no counts; the latency histogram covers
 * only the interval since the OTM's previous load report, so a lost report loses its samples.
 * Immutable.
 *
 * <p>An OTM of an older version sends only the first three fields; the others then read as 0 and
 * null.
 *
 * @param partitionId the partition
 * @param commits transactions committed (including read-only ones)
 * @param aborts transactions aborted, for any reason
 * @param begins transactions begun: its requests (a procedure call begins one per attempt)
 * @param storeBytes the partition store's size now, memtables plus SSTables on the DFS, in bytes
 * @param commitLatency how long the transactions committed in the interval took from begin to the
 *     end of their commit, or null if none committed (or the OTM does not measure it)
 */
public record PartitionLoad(long partitionId, long commits, long aborts, long begins, long storeBytes,
        LatencyHistogram commitLatency) {

    /** Counters only, as an OTM of an older version reports them. */
    public PartitionLoad(long partitionId, long commits, long aborts) {
        this(partitionId, commits, aborts, 0, 0, null);
    }

    public PartitionLoad {
        Fields.requirePartitionId("heartbeat", partitionId);
        if (commits < 0 || aborts < 0 || begins < 0) {
            throw Fields.malformed("heartbeat", "counters must be >= 0, got commits " + commits + ", aborts " + aborts
                    + ", begins " + begins);
        }
        if (storeBytes < 0) {
            throw Fields.malformed("heartbeat", "storeBytes must be >= 0, got " + storeBytes);
        }
    }
}

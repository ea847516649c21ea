package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The commit timestamps of every acknowledged writing transaction of a run, across workloads and
 * partitions, to check DESIGN.md invariant 4: no CTS is issued twice, also across master
 * failover. (A read-only commit answers its snapshot's CTS, which may be shared: record writers
 * only.) Thread-safe; bounded: past {@link #RECORDED_MAX} timestamps it stops recording and says so.
 */
final class CommitTimestamps {

    static final int RECORDED_MAX = 5_000_000;
    static final int DUPLICATES_KEPT_MAX = 100;

    /** Guarded by this: CTS -> who committed at it. */
    private final Map<Long, String> writerByCts = new HashMap<>();
    /** Guarded by this. */
    private final List<String> duplicates = new ArrayList<>();
    /** Guarded by this. */
    private long duplicateCount;
    /** Guarded by this. */
    private boolean truncated;

    /** Records that {@code writer} (a label for reports) committed writes at {@code cts}. */
    synchronized void record(long cts, String writer) {
        String earlier = writerByCts.get(cts);
        if (earlier != null) {
            duplicateCount++;
            if (duplicates.size() < DUPLICATES_KEPT_MAX) {
                duplicates.add("CTS " + cts + " acknowledged to both " + earlier + " and " + writer);
            }
            return;
        }
        if (writerByCts.size() >= RECORDED_MAX) {
            truncated = true;
            return;
        }
        writerByCts.put(cts, writer);
    }

    synchronized long duplicateCount() {
        return duplicateCount;
    }

    synchronized List<String> duplicates() {
        return List.copyOf(duplicates);
    }

    synchronized long recorded() {
        return writerByCts.size();
    }

    synchronized boolean truncated() {
        return truncated;
    }
}

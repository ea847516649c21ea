package org.elastras.master.balance;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What {@link LoadWindow} knew at one moment: the window's load of every partition it tracks and
 * of every OTM that reported. Immutable.
 *
 * @param atMs the time it was taken (the master's clock)
 * @param windowMs how far back it reaches
 * @param sliceMs the length of one slice
 * @param partitions load by partition id, whichever OTMs served it in the window
 * @param otms load by OTM id, as each OTM measured itself in the window
 */
public record LoadView(long atMs, long windowMs, long sliceMs, SortedMap<Long, WindowLoad> partitions,
        SortedMap<String, WindowLoad> otms) {

    public LoadView {
        partitions = Collections.unmodifiableSortedMap(new TreeMap<>(partitions));
        otms = Collections.unmodifiableSortedMap(new TreeMap<>(otms));
    }

    /** A view that knows nothing (no report yet). */
    public static LoadView empty(long atMs, LoadWindowConfig config) {
        return new LoadView(atMs, config.windowMs(), config.sliceMs(), new TreeMap<>(), new TreeMap<>());
    }

    /** Slices in the window. */
    public int slices() {
        return (int) (windowMs / sliceMs);
    }

    /** A partition's load, or null if it had no report in the window. */
    public WindowLoad partition(long partitionId) {
        return partitions.get(partitionId);
    }

    /** A partition's rate in a slice, 0 if unknown: unknown load never counts as load. */
    public double requestsPerSecondInSliceOrZero(long partitionId, int slice) {
        WindowLoad w = partitions.get(partitionId);
        if (w == null) {
            return 0;
        }
        double r = w.requestsPerSecondInSlice(slice);
        return Double.isNaN(r) ? 0 : r;
    }

    /** A partition's rate over the window, 0 if unknown. */
    public double requestsPerSecondOrZero(long partitionId) {
        WindowLoad w = partitions.get(partitionId);
        return w == null || Double.isNaN(w.requestsPerSecond()) ? 0 : w.requestsPerSecond();
    }
}

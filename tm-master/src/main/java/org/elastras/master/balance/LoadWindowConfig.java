package org.elastras.master.balance;

/**
 * How {@link LoadWindow} slices time. Immutable.
 *
 * @param windowMs how far back the window reaches; a whole number of slices
 * @param sliceMs the length of one slice: the unit a threshold must hold in (every slice of the
 *     window), so a spike shorter than a slice and a half can lift at most two slices
 * @param partitionsMax most partitions tracked at once; beyond, newly reported ones are ignored
 *     (their load is unknown, which never triggers a move)
 */
public record LoadWindowConfig(long windowMs, long sliceMs, int partitionsMax) {

    /** Most slices in a window: bounds the memory per partition. */
    public static final int SLICES_MAX = 120;

    /** 30 s in six 5 s slices, up to a million partitions. */
    public static final LoadWindowConfig DEFAULT = new LoadWindowConfig(30_000, 5_000, 1_000_000);

    public LoadWindowConfig {
        if (sliceMs < 100) {
            throw new IllegalArgumentException("sliceMs must be at least 100, got " + sliceMs);
        }
        if (windowMs < sliceMs || windowMs % sliceMs != 0) {
            throw new IllegalArgumentException("windowMs must be a positive multiple of sliceMs (" + sliceMs + "), got "
                    + windowMs);
        }
        if (windowMs / sliceMs > SLICES_MAX) {
            throw new IllegalArgumentException("the window holds " + windowMs / sliceMs + " slices; at most " + SLICES_MAX
                    + ": make sliceMs larger");
        }
        if (partitionsMax < 1) {
            throw new IllegalArgumentException("partitionsMax must be at least 1, got " + partitionsMax);
        }
    }

    /** Slices in the window. */
    public int slices() {
        return (int) (windowMs / sliceMs);
    }
}

package org.elastras.storage.sstable;

/**
 * How SSTables are written. Immutable; validated at construction.
 *
 * @param blockBytesTarget uncompressed size at which a data block is closed
 * @param restartInterval entries between restart points inside a block (prefix compression)
 * @param bloomBitsPerKey bloom filter bits per distinct user key (0 disables the filter)
 */
public record SsTableOptions(int blockBytesTarget, int restartInterval, int bloomBitsPerKey) {

    public static final SsTableOptions DEFAULT = new SsTableOptions(16 * 1024, 16, 10);

    public SsTableOptions {
        if (blockBytesTarget < 256 || blockBytesTarget > 4 << 20) {
            throw new IllegalArgumentException("blockBytesTarget must be in [256, 4 MiB], got " + blockBytesTarget);
        }
        if (restartInterval < 1 || restartInterval > 1024) {
            throw new IllegalArgumentException("restartInterval must be in [1, 1024], got " + restartInterval);
        }
        if (bloomBitsPerKey < 0 || bloomBitsPerKey > 64) {
            throw new IllegalArgumentException("bloomBitsPerKey must be in [0, 64], got " + bloomBitsPerKey);
        }
    }
}

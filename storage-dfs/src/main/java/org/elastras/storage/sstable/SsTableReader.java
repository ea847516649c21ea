package org.elastras.storage.sstable;

import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.util.CorruptionException;

/**
 * Reads one SSTable: point lookups at a snapshot and ordered scans. Every block is checked
 * against its checksum when read from the DFS.
 *
 * <p>Thread-safe: any number of threads may read at once. Everything decoded at open (index,
 * filter, footer) is immutable; each lookup or scan works on a cursor of its own; data blocks are
 * immutable once verified and shared through the {@link BlockCache}.
 */
public final class SsTableReader implements Closeable {

    private final DfsFile file;
    private final String path;
    private final long cacheId;
    private final BlockCache cache;
    private final SsTableInfo info;
    /** The bloom filter, or null if the table was written without one. */
    private final BloomFilter filter;

    /** Per data block, in file order: its last (key, cts), its offset and its size. */
    private final byte[][] lastKeys;
    private final long[] lastCts;
    private final long[] blockOffsets;
    private final int[] blockSizes;

    private volatile boolean closed;

    private SsTableReader(DfsFile file, String path, long cacheId, BlockCache cache, SsTableInfo info,
            BloomFilter filter, byte[][] lastKeys, long[] lastCts, long[] blockOffsets, int[] blockSizes) {
        this.file = file;
        this.path = path;
        this.cacheId = cacheId;
        this.cache = cache;
        this.info = info;
        this.filter = filter;
        this.lastKeys = lastKeys;
        this.lastCts = lastCts;
        this.blockOffsets = blockOffsets;
        this.blockSizes = blockSizes;
    }

    /**
     * Opens a table and verifies its footer, index and bloom filter.
     *
     * @param cacheId an id unique among the tables sharing {@code cache} (e.g. a global file number)
     * @throws org.elastras.storage.util.CorruptionException if the footer, index or filter fails
     *     its checksum or format
     */
    public static SsTableReader open(Dfs dfs, String path, long cacheId, BlockCache cache) throws IOException {
        if (cache == null) {
            throw new IllegalArgumentException("cache must not be null; pass new BlockCache(0) to disable caching");
        }
        DfsFile file = dfs.open(path);
        try {
            return load(file, path, cacheId, cache);
        } catch (IOException | RuntimeException | Error e) {
            file.close();
            throw e;
        }
    }

    private static SsTableReader load(DfsFile file, String path, long cacheId, BlockCache cache) throws IOException {
        long fileBytes = file.length();
        if (fileBytes < SsTableFormat.FOOTER_BYTES) {
            throw new CorruptionException(path, 0, "file of " + fileBytes + " bytes is shorter than the "
                    + SsTableFormat.FOOTER_BYTES + "-byte footer (an unfinished or truncated SSTable)");
        }
        long footerOffset = fileBytes - SsTableFormat.FOOTER_BYTES;
        Footer footer = Footer.decode(file.readFully(footerOffset, SsTableFormat.FOOTER_BYTES), path, footerOffset);

        byte[] indexBlock = readMetaBlock(file, path, footer.indexOffset(), footer.indexSize(), "index");
        int blockCount = footer.dataBlockCount();
        byte[][] lastKeys = new byte[blockCount][];
        long[] lastCts = new long[blockCount];
        long[] blockOffsets = new long[blockCount];
        int[] blockSizes = new int[blockCount];
        ByteSource index = new ByteSource(indexBlock, 0, indexBlock.length - SsTableFormat.CRC_BYTES);
        try {
            int count = index.varintAtMost(Integer.MAX_VALUE, "index block count");
            if (count != blockCount) {
                throw new CorruptionException(path, footer.indexOffset(), "index lists " + count
                        + " data blocks but the footer says " + blockCount);
            }
            long expectedOffset = 0;
            for (int i = 0; i < blockCount; i++) {
                int entryAt = index.position();
                lastKeys[i] = index.lengthPrefixed(SsTableFormat.BLOCK_BYTES_MAX, "index key");
                lastCts[i] = index.varint();
                blockOffsets[i] = index.varint();
                long size = index.varint();
                if (blockOffsets[i] != expectedOffset || size < SsTableFormat.BLOCK_TRAILER_FIXED_BYTES + 4
                        || size > SsTableFormat.BLOCK_BYTES_MAX) {
                    throw new CorruptionException(path, footer.indexOffset() + entryAt, "index entry " + i
                            + " names a data block of " + size + " bytes at offset " + blockOffsets[i]
                            + " where the previous block ends at " + expectedOffset);
                }
                blockSizes[i] = (int) size;
                expectedOffset += size;
                if (i > 0 && Version.compare(lastKeys[i - 1], lastCts[i - 1], lastKeys[i], lastCts[i]) >= 0) {
                    throw new CorruptionException(path, footer.indexOffset() + entryAt, "index entry " + i
                            + " does not sort after the one before it");
                }
            }
            if (index.remaining() != 0) {
                throw new CorruptionException(path, footer.indexOffset() + index.position(), index.remaining()
                        + " unexpected bytes after the last index entry");
            }
            if (expectedOffset != footer.filterOffset()) {
                throw new CorruptionException(path, footer.indexOffset(), "data blocks end at " + expectedOffset
                        + " but the filter starts at " + footer.filterOffset());
            }
        } catch (ByteSource.FormatException e) {
            throw new CorruptionException(path, footer.indexOffset() + index.position(),
                    "malformed index block: " + e.getMessage());
        }

        byte[] keyRangeBlock = readMetaBlock(file, path, footer.keyRangeOffset(), footer.keyRangeSize(), "key range");
        ByteSource keyRange = new ByteSource(keyRangeBlock, 0, keyRangeBlock.length - SsTableFormat.CRC_BYTES);
        byte[] smallestKey;
        byte[] largestKey;
        try {
            smallestKey = keyRange.lengthPrefixed(SsTableFormat.BLOCK_BYTES_MAX, "smallest key");
            largestKey = keyRange.lengthPrefixed(SsTableFormat.BLOCK_BYTES_MAX, "largest key");
            if (keyRange.remaining() != 0) {
                throw new ByteSource.FormatException(keyRange.remaining() + " unexpected trailing bytes");
            }
        } catch (ByteSource.FormatException e) {
            throw new CorruptionException(path, footer.keyRangeOffset() + keyRange.position(),
                    "malformed key range block: " + e.getMessage());
        }
        boolean keyRangeConsistent = blockCount == 0
                ? smallestKey.length == 0 && largestKey.length == 0
                : Version.compareKeys(largestKey, lastKeys[blockCount - 1]) == 0
                        && Version.compareKeys(smallestKey, lastKeys[0]) <= 0;
        if (!keyRangeConsistent) {
            throw new CorruptionException(path, footer.keyRangeOffset(),
                    "smallest or largest key disagrees with the index");
        }

        BloomFilter filter = null;
        if (footer.filterSize() > 0) {
            byte[] filterBlock = file.readFully(footer.filterOffset(), footer.filterSize());
            filter = BloomFilter.decode(filterBlock, path, footer.filterOffset());
        }

        String fileName = path.substring(path.lastIndexOf('/') + 1);
        SsTableInfo info = new SsTableInfo(fileName, fileBytes, footer.entryCount(), smallestKey, largestKey,
                footer.minCts(), footer.maxCts());
        return new SsTableReader(file, path, cacheId, cache, info, filter, lastKeys, lastCts, blockOffsets, blockSizes);
    }

    /** Reads an index or key range block and verifies its trailing CRC32C. */
    private static byte[] readMetaBlock(DfsFile file, String path, long offset, int size, String what)
            throws IOException {
        byte[] block = file.readFully(offset, size);
        int crcAt = size - SsTableFormat.CRC_BYTES;
        int stored = ByteCoding.getInt(block, crcAt);
        int actual = Checksums.crc32c(block, 0, crcAt);
        if (stored != actual) {
            throw new CorruptionException(path, offset, what + " block checksum mismatch (stored "
                    + Integer.toHexString(stored) + ", computed " + Integer.toHexString(actual) + ")");
        }
        return block;
    }

    /** The newest version of {@code key} with {@code cts <= snapshotCts} (a tombstone included), or null. */
    public Version get(byte[] key, long snapshotCts) throws IOException {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        return get(key, snapshotCts, keyHash(key));
    }

    /**
     * {@link #get(byte[], long)} for a key whose {@link #keyHash} the caller has: a store probing
     * several tables for one key hashes it once.
     */
    public Version get(byte[] key, long snapshotCts, long keyHash) throws IOException {
        requireOpen();
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        if (snapshotCts < 0 || (filter != null && !filter.mayContain(keyHash))) {
            return null;
        }
        // (key, snapshotCts) sorts before every version of key with cts <= snapshotCts and after
        // every newer one: the first version at or after it is the answer if its key is ours.
        TableCursor cursor = new TableCursor(this);
        cursor.seek(key, snapshotCts);
        return cursor.valid() && cursor.keyEquals(key) ? cursor.version() : null;
    }

    /** The hash of {@code key} that every table's bloom filter is probed with. */
    public static long keyHash(byte[] key) {
        return BloomFilter.hash64(key);
    }

    /** False if the bloom filter proves the table holds no version of {@code key}. */
    public boolean mayContain(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        return filter == null || filter.mayContain(key);
    }

    /**
     * Every version in {@link Version#ORDER}, starting at the first version whose key is
     * {@code >= fromKey} ({@code null}: from the start). IO and corruption errors surface as
     * {@link java.io.UncheckedIOException} from {@code hasNext}/{@code next}.
     */
    public CloseableIterator<Version> scan(byte[] fromKey) {
        requireOpen();
        return new Scan(new TableCursor(this), fromKey);
    }

    public SsTableInfo info() {
        return info;
    }

    /** Closes the file and drops this table's blocks from the cache. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        cache.evictTable(cacheId);
        file.close();
    }

    int dataBlockCount() {
        return blockOffsets.length;
    }

    long blockOffset(int index) {
        return blockOffsets[index];
    }

    /** Index of the first data block whose last version sorts {@code >= (key, cts)}, or the block count. */
    int firstBlockEndingAtOrAfter(byte[] key, long cts) {
        int low = 0;
        int high = lastKeys.length;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (Version.compare(lastKeys[mid], lastCts[mid], key, cts) < 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Data block {@code index}, from the cache or read from the DFS and verified. */
    Block block(int index) throws IOException {
        requireOpen();
        long offset = blockOffsets[index];
        Block block = cache.get(cacheId, offset);
        if (block == null) {
            byte[] bytes = file.readFully(offset, blockSizes[index]);
            block = Block.decode(bytes, path, offset, index == 0 ? null : lastKeys[index - 1],
                    index == 0 ? 0 : lastCts[index - 1], lastKeys[index], lastCts[index]);
            cache.put(cacheId, offset, block);
        }
        return block;
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("SSTable " + path + " is closed");
        }
    }

    /** A lazy scan: a block is read when the cursor first needs it. One thread at a time. */
    private static final class Scan implements CloseableIterator<Version> {
        private final TableCursor cursor;
        private final byte[] fromKey;
        private boolean positioned;
        private boolean advancePending;
        private boolean done;
        /** The first IO or corruption error; thrown again by every later call, never read past. */
        private UncheckedIOException failure;

        Scan(TableCursor cursor, byte[] fromKey) {
            this.cursor = cursor;
            this.fromKey = fromKey;
        }

        @Override
        public boolean hasNext() {
            if (failure != null) {
                throw failure;
            }
            if (done) {
                return false;
            }
            try {
                if (!positioned) {
                    positioned = true;
                    if (fromKey == null) {
                        cursor.seekToFirst();
                    } else {
                        cursor.seek(fromKey, Long.MAX_VALUE);
                    }
                } else if (advancePending) {
                    advancePending = false;
                    cursor.next();
                }
            } catch (IOException e) {
                failure = new UncheckedIOException(e);
                throw failure;
            }
            if (!cursor.valid()) {
                done = true;
            }
            return !done;
        }

        @Override
        public Version next() {
            if (!hasNext()) {
                throw new NoSuchElementException("scan is past the last version");
            }
            advancePending = true;
            return cursor.version();
        }

        @Override
        public void close() {
            done = true;
        }
    }
}

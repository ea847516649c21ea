package org.elastras.storage.sstable;

import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.ByteCoding;
import org.elastras.storage.util.ByteSink;
import org.elastras.storage.util.Checksums;
import org.elastras.storage.util.LimitExceededException;

/**
 * Writes one immutable SSTable: versions added in strictly increasing {@link Version#ORDER}.
 * Format in docs/sstable-format.md.
 *
 * <p>Not thread-safe: one thread adds and finishes.
 */
public final class SsTableWriter implements Closeable {

    private enum State { OPEN, FINISHED, FAILED, CLOSED }

    private final DfsOutput out;
    private final String fileName;
    private final SsTableOptions options;
    private final BlockBuilder dataBlock;
    /** Index entries (last key, last cts, offset, size), encoded as they are made. */
    private final ByteSink indexEntries = new ByteSink(4096);
    private int dataBlockCount;

    /** Hashes of the distinct keys, for the bloom filter built at {@link #finish()}. */
    private long[] keyHashes = new long[1024];
    private int keyHashCount;

    private byte[] lastKey;
    private long lastCts;
    private byte[] smallestKey;
    private long entryCount;
    private long minCts = Long.MAX_VALUE;
    private long maxCts = -1;
    private State state = State.OPEN;

    /**
     * @param out a freshly created, empty file; the writer owns it and closes it
     * @param fileName the file's name, recorded in the returned {@link SsTableInfo}
     */
    public SsTableWriter(DfsOutput out, String fileName, SsTableOptions options) {
        if (out == null || fileName == null || options == null) {
            throw new IllegalArgumentException("out, fileName and options must not be null");
        }
        if (out.position() != 0) {
            throw new IllegalArgumentException("SSTable output for " + fileName + " must be empty, but "
                    + out.position() + " bytes were written to it already");
        }
        this.out = out;
        this.fileName = fileName;
        this.options = options;
        this.dataBlock = new BlockBuilder(options.restartInterval(), options.blockBytesTarget());
    }

    /**
     * Appends a version.
     *
     * @throws IllegalStateException if {@code version} does not sort strictly after the previous
     *     one (a duplicate (key, cts) is such a bug), or after {@link #finish()}
     */
    public void add(Version version) throws IOException {
        requireOpen("add");
        byte[] key = version.key();
        long cts = version.cts();
        if (lastKey != null && Version.compare(lastKey, lastCts, key, cts) >= 0) {
            throw new IllegalStateException("SSTable " + fileName + ": " + version + " does not sort strictly after "
                    + "the previous version (key " + java.util.HexFormat.of().formatHex(lastKey) + " @ " + lastCts
                    + ") in Version.ORDER; " + (Version.compare(lastKey, lastCts, key, cts) == 0
                            ? "a duplicate (key, cts)" : "out of order"));
        }
        int valueBytes = version.value() == null ? 0 : version.value().length;
        long entryBytes = BlockBuilder.entryBytesMax(key.length, valueBytes);
        long entryBytesMax = SsTableFormat.BLOCK_BYTES_MAX - (long) options.blockBytesTarget() - 4096;
        if (entryBytes > entryBytesMax) {
            throw new LimitExceededException("SSTable entry size", entryBytes, entryBytesMax, "StorageLimits.HARD_RECORD_BYTES_MAX");
        }
        if (lastKey == null || !Arrays.equals(lastKey, key)) {
            if (keyHashCount == keyHashes.length) {
                keyHashes = Arrays.copyOf(keyHashes, keyHashCount * 2);
            }
            keyHashes[keyHashCount++] = BloomFilter.hash64(key);
        }
        if (smallestKey == null) {
            smallestKey = key;
        }
        dataBlock.add(key, cts, version.value());
        lastKey = key;
        lastCts = cts;
        entryCount++;
        minCts = Math.min(minCts, cts);
        maxCts = Math.max(maxCts, cts);
        if (dataBlock.sizeBytesEstimate() >= options.blockBytesTarget()) {
            writeDataBlock();
        }
    }

    /** Writes the index, the bloom filter and the footer, syncs, closes, and describes the table. */
    public SsTableInfo finish() throws IOException {
        requireOpen("finish");
        state = State.FAILED;
        if (!dataBlock.isEmpty()) {
            writeDataBlock();
        }
        long filterOffset = out.position();
        int filterSize = 0;
        if (options.bloomBitsPerKey() > 0) {
            filterSize = write(BloomFilter.encode(keyHashes, keyHashCount, options.bloomBitsPerKey()));
        }
        byte[] smallest = smallestKey == null ? new byte[0] : smallestKey;
        byte[] largest = lastKey == null ? new byte[0] : lastKey;
        long keyRangeOffset = out.position();
        ByteSink keyRange = new ByteSink(smallest.length + largest.length + 16);
        keyRange.lengthPrefixed(smallest).lengthPrefixed(largest);
        int keyRangeSize = write(withCrc(keyRange));

        long indexOffset = out.position();
        ByteSink index = new ByteSink(indexEntries.length() + 16);
        index.varint(dataBlockCount).bytes(indexEntries.array(), 0, indexEntries.length());
        int indexSize = write(withCrc(index));

        byte[] footer = new byte[SsTableFormat.FOOTER_BYTES];
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_INDEX_OFFSET, indexOffset);
        ByteCoding.putInt(footer, SsTableFormat.FOOTER_INDEX_SIZE, indexSize);
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_FILTER_OFFSET, filterOffset);
        ByteCoding.putInt(footer, SsTableFormat.FOOTER_FILTER_SIZE, filterSize);
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_KEY_RANGE_OFFSET, keyRangeOffset);
        ByteCoding.putInt(footer, SsTableFormat.FOOTER_KEY_RANGE_SIZE, keyRangeSize);
        ByteCoding.putInt(footer, SsTableFormat.FOOTER_DATA_BLOCK_COUNT, dataBlockCount);
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_ENTRY_COUNT, entryCount);
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_MIN_CTS, minCts);
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_MAX_CTS, maxCts);
        ByteCoding.putInt(footer, SsTableFormat.FOOTER_FORMAT_VERSION, SsTableFormat.FORMAT_VERSION);
        ByteCoding.putLong(footer, SsTableFormat.FOOTER_MAGIC, SsTableFormat.MAGIC);
        ByteCoding.putInt(footer, SsTableFormat.FOOTER_CRC, Checksums.crc32c(footer, 0, SsTableFormat.FOOTER_CRC));
        write(footer);
        out.sync();
        long fileBytes = out.position();
        out.close();
        state = State.FINISHED;
        return new SsTableInfo(fileName, fileBytes, entryCount, smallest.clone(), largest.clone(), minCts, maxCts);
    }

    /** Abandons an unfinished table: closes the output without a footer. */
    @Override
    public void close() throws IOException {
        if (state == State.FINISHED || state == State.CLOSED) {
            state = State.CLOSED;
            return;
        }
        state = State.CLOSED;
        out.close();
    }

    private void requireOpen(String operation) {
        if (state != State.OPEN) {
            throw new IllegalStateException("SSTable " + fileName + ": " + operation + " after the writer was "
                    + state.name().toLowerCase(java.util.Locale.ROOT));
        }
    }

    private void writeDataBlock() throws IOException {
        long offset = out.position();
        byte[] block = dataBlock.finish();
        State before = state;
        state = State.FAILED;
        write(block);
        state = before;
        indexEntries.lengthPrefixed(lastKey).varint(lastCts).varint(offset).varint(block.length);
        dataBlockCount++;
    }

    private int write(byte[] bytes) throws IOException {
        out.write(bytes, 0, bytes.length);
        return bytes.length;
    }

    private static byte[] withCrc(ByteSink sink) {
        sink.u32(Checksums.crc32c(sink.array(), 0, sink.length()));
        if (sink.length() > SsTableFormat.BLOCK_BYTES_MAX) {
            throw new IllegalStateException("metadata block of " + sink.length() + " bytes exceeds the limit of "
                    + SsTableFormat.BLOCK_BYTES_MAX);
        }
        return sink.toByteArray();
    }
}

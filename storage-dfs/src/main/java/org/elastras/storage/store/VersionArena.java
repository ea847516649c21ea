package org.elastras.storage.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A memtable's versions as records in large byte arrays: each record its CTS, the address of the
 * key's next older record, and its value. A key's holder keeps only its newest record's address,
 * a {@code long}.
 *
 * <p>Why: a memtable lives for seconds to minutes, so its holders are in the old generation while
 * writers still add versions to them. A version held as an object made each write store a young
 * reference into an old holder, a dirty card the next young collection scans; a version written
 * here stores bytes into an array and a {@code long} into the holder, which the collector never
 * scans. The arrays hold no references at all. (Young pauses of the OTMs were mostly that
 * scanning; {@code MemtableGcBenchmark} measures it.)
 *
 * <p>Records are immutable once appended. An address is its chunk's number in the high 32 bits
 * and the record's offset in the low ones; {@link #NONE} is none. Chunks grow from 4 KiB to
 * 256 KiB; a record larger than the next chunk gets a chunk of its own.
 *
 * <p>Thread-safe: appends take this arena's monitor (a bump of a position); reads take no lock.
 * A reader must have learned an address through a happens-before edge with its append (a holder's
 * volatile field written after the append returned): the record's bytes and its chunk are then
 * visible to it.
 */
final class VersionArena {

    /** No record: the older address of a key's oldest record, and a holder's before its first. */
    static final long NONE = -1;

    /** The largest chunk: a regular object for the collector on any heap of 1 MiB regions or more. */
    static final int CHUNK_BYTES = 1 << 18;
    /** The first chunk; each next is twice as large, up to {@link #CHUNK_BYTES}: a small memtable stays small. */
    static final int FIRST_CHUNK_BYTES = 1 << 12;

    /** CTS (8), older record's address (8), value length (4; -1 for a tombstone). */
    private static final int HEADER_BYTES = 20;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /** Chunks by number; a grown array is published after its chunks are copied, a chunk never replaced. */
    private volatile byte[][] chunks = new byte[4][];
    /** Chunks in use; the last is the one appends go to. Guarded by this. */
    private int chunkCount;
    /** The last chunk, or null before the first append. Guarded by this. */
    private byte[] current;
    /** Where the next record goes in {@link #current}. Guarded by this. */
    private int position;
    /** The size of the next regular chunk. Guarded by this. */
    private int nextChunkBytes = FIRST_CHUNK_BYTES;
    /** The chunks' bytes. Guarded by this. */
    private long reservedBytes;

    /**
     * Appends a record.
     *
     * @param value the value, or null for a tombstone
     * @return the record's address
     */
    synchronized long append(long cts, long older, byte[] value) {
        int length = HEADER_BYTES + (value == null ? 0 : value.length);
        if (current == null || position + length > current.length) {
            // A record larger than the next regular chunk gets a chunk of its size, then full.
            current = newChunk(Math.max(length, nextChunkBytes));
            nextChunkBytes = Math.min(CHUNK_BYTES, nextChunkBytes * 2);
            position = 0;
        }
        byte[] chunk = current;
        int offset = position;
        position += length;
        LONGS.set(chunk, offset, cts);
        LONGS.set(chunk, offset + 8, older);
        INTS.set(chunk, offset + 16, value == null ? -1 : value.length);
        if (value != null) {
            System.arraycopy(value, 0, chunk, offset + HEADER_BYTES, value.length);
        }
        return (long) (chunkCount - 1) << 32 | offset;
    }

    /** REQUIRES: this monitor. */
    private byte[] newChunk(int bytes) {
        byte[][] cs = chunks;
        if (chunkCount == cs.length) {
            cs = Arrays.copyOf(cs, cs.length * 2);
            chunks = cs;
        }
        byte[] chunk = new byte[bytes];
        cs[chunkCount++] = chunk;
        reservedBytes += bytes;
        return chunk;
    }

    /** The bytes of every chunk allocated, used or not. */
    synchronized long reservedBytes() {
        return reservedBytes;
    }

    private byte[] chunk(long address) {
        return chunks[(int) (address >>> 32)];
    }

    long cts(long address) {
        return (long) LONGS.get(chunk(address), (int) address);
    }

    long older(long address) {
        return (long) LONGS.get(chunk(address), (int) address + 8);
    }

    /** A copy of the record's value; null for a tombstone. */
    byte[] value(long address) {
        return value(chunk(address), (int) address);
    }

    private static byte[] value(byte[] chunk, int offset) {
        int length = (int) INTS.get(chunk, offset + 16);
        return length < 0 ? null : Arrays.copyOfRange(chunk, offset + HEADER_BYTES, offset + HEADER_BYTES + length);
    }

    /** Whether the record's value is {@code value} (both null for tombstones). */
    boolean valueEquals(long address, byte[] value) {
        byte[] chunk = chunk(address);
        int offset = (int) address;
        int length = (int) INTS.get(chunk, offset + 16);
        if (length < 0 || value == null) {
            return length < 0 && value == null;
        }
        return Arrays.equals(chunk, offset + HEADER_BYTES, offset + HEADER_BYTES + length, value, 0, value.length);
    }

    /** The record as a version of {@code key}: its chunk looked up once for the CTS and the value. */
    Version version(byte[] key, long address) {
        byte[] chunk = chunk(address);
        int offset = (int) address;
        return new Version(key, (long) LONGS.get(chunk, offset), value(chunk, offset));
    }
}

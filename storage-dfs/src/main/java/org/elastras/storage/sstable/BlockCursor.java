package org.elastras.storage.sstable;

import java.util.Arrays;
import org.elastras.storage.store.Version;
import org.elastras.storage.util.CorruptionException;

/**
 * A position inside one {@link Block}: decodes entries one by one and seeks through the restart
 * points. Every read is bounds checked, so even a block that slipped past its checksum yields a
 * {@link CorruptionException}, never garbage. Not thread-safe: one cursor per reading thread
 * (the block itself is shared).
 */
final class BlockCursor {

    private final Block block;
    private final byte[] bytes;
    private final int limit;

    /** Offset of the current entry, or -1 when the cursor is not on an entry. */
    private int entryOffset = -1;
    private int nextOffset;
    private int position;
    private byte[] key = new byte[32];
    private int keyLength;
    private int sharedBytes;
    private long cts;
    private boolean tombstone;
    private int valueOffset;
    private int valueLength;

    BlockCursor(Block block) {
        this.block = block;
        this.bytes = block.bytes();
        this.limit = block.entriesEnd();
    }

    boolean valid() {
        return entryOffset >= 0;
    }

    void seekToFirst() throws CorruptionException {
        keyLength = 0;
        decodeAt(0);
    }

    /** Moves to the first entry {@code >= (targetKey, targetCts)} in Version.ORDER, or past the end. */
    void seek(byte[] targetKey, long targetCts) throws CorruptionException {
        // Binary search for the last restart point whose entry sorts before the target: the
        // answer lies between it and the next restart point.
        int left = 0;
        int right = block.restartCount() - 1;
        while (left < right) {
            int mid = (left + right + 1) >>> 1;
            keyLength = 0;
            decodeAt(block.restart(mid));
            if (compareTo(targetKey, targetCts) < 0) {
                left = mid;
            } else {
                right = mid - 1;
            }
        }
        keyLength = 0;
        decodeAt(block.restart(left));
        while (valid() && compareTo(targetKey, targetCts) < 0) {
            next();
        }
    }

    void next() throws CorruptionException {
        if (!valid()) {
            throw new IllegalStateException("next() on a block cursor that is not on an entry");
        }
        decodeAt(nextOffset);
    }

    /** Compares the current entry with (otherKey, otherCts) in Version.ORDER. */
    int compareTo(byte[] otherKey, long otherCts) {
        int c = Arrays.compareUnsigned(key, 0, keyLength, otherKey, 0, otherKey.length);
        return c != 0 ? c : Long.compare(otherCts, cts);
    }

    boolean keyEquals(byte[] otherKey) {
        return Arrays.equals(key, 0, keyLength, otherKey, 0, otherKey.length);
    }

    long cts() {
        return cts;
    }

    int entryOffset() {
        return entryOffset;
    }

    int sharedBytes() {
        return sharedBytes;
    }

    byte[] keyCopy() {
        return Arrays.copyOf(key, keyLength);
    }

    /** The current entry as a fresh {@link Version} that shares no array with the block. */
    Version version() {
        byte[] value = tombstone ? null : Arrays.copyOfRange(bytes, valueOffset, valueOffset + valueLength);
        return new Version(keyCopy(), cts, value);
    }

    /** Decodes the entry at {@code offset}, using the current key as the shared prefix. */
    private void decodeAt(int offset) throws CorruptionException {
        if (offset == limit) {
            entryOffset = -1;
            return;
        }
        position = offset;
        int shared = readLength("shared key length");
        int unshared = readLength("unshared key length");
        int flags = readByte();
        long entryCts = readVarint("cts");
        int entryValueLength = readLength("value length");
        if (shared > keyLength) {
            throw block.corruption(offset, "entry shares " + shared + " key bytes but the previous key has "
                    + keyLength);
        }
        if ((flags & ~SsTableFormat.FLAG_TOMBSTONE) != 0) {
            throw block.corruption(offset, "unknown entry flags " + Integer.toHexString(flags));
        }
        boolean isTombstone = (flags & SsTableFormat.FLAG_TOMBSTONE) != 0;
        if (isTombstone && entryValueLength != 0) {
            throw block.corruption(offset, "tombstone with a value of " + entryValueLength + " bytes");
        }
        if ((long) unshared + entryValueLength > limit - position) {
            throw block.corruption(offset, "entry of " + unshared + " key and " + entryValueLength
                    + " value bytes runs past the end of the entries at " + limit);
        }
        int newKeyLength = shared + unshared;
        if (newKeyLength > key.length) {
            key = Arrays.copyOf(key, Math.max(newKeyLength, key.length * 2));
        }
        System.arraycopy(bytes, position, key, shared, unshared);
        keyLength = newKeyLength;
        position += unshared;
        sharedBytes = shared;
        cts = entryCts;
        tombstone = isTombstone;
        valueOffset = position;
        valueLength = entryValueLength;
        position += entryValueLength;
        entryOffset = offset;
        nextOffset = position;
    }

    private int readByte() throws CorruptionException {
        if (position >= limit) {
            throw block.corruption(position, "entry runs past the end of the entries at " + limit);
        }
        return bytes[position++] & 0xFF;
    }

    private long readVarint(String what) throws CorruptionException {
        int start = position;
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            result |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (result < 0) {
                    throw block.corruption(start, what + " varint overflows a signed long");
                }
                return result;
            }
        }
        throw block.corruption(start, what + " varint is longer than 10 bytes");
    }

    private int readLength(String what) throws CorruptionException {
        int start = position;
        long v = readVarint(what);
        if (v > limit) {
            throw block.corruption(start, what + " " + v + " exceeds the block's " + limit + " entry bytes");
        }
        return (int) v;
    }
}

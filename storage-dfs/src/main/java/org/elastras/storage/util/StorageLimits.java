package org.elastras.storage.util;

/**
 * Size limits of the storage layer, validated once here and enforced before any write.
 * Immutable.
 *
 * @param keyBytesMax largest key, in bytes
 * @param valueBytesMax largest value, in bytes
 * @param mutationsPerRecordMax most mutations in one WAL record (one transaction's write set)
 * @param recordBytesMax largest encoded WAL record, in bytes
 */
public record StorageLimits(int keyBytesMax, int valueBytesMax, int mutationsPerRecordMax, int recordBytesMax) {

    /** Absolute ceiling on any one encoded record or block: 256 MiB. */
    public static final int HARD_RECORD_BYTES_MAX = 256 << 20;

    public static final StorageLimits DEFAULT = new StorageLimits(16 * 1024, 1 << 20, 100_000, 64 << 20);

    public StorageLimits {
        if (keyBytesMax < 1 || keyBytesMax > 64 * 1024) {
            throw new IllegalArgumentException("keyBytesMax must be in [1, 65536], got " + keyBytesMax);
        }
        if (valueBytesMax < 0 || valueBytesMax > HARD_RECORD_BYTES_MAX / 2) {
            throw new IllegalArgumentException("valueBytesMax must be in [0, 128 MiB], got " + valueBytesMax);
        }
        if (mutationsPerRecordMax < 1 || mutationsPerRecordMax > 10_000_000) {
            throw new IllegalArgumentException("mutationsPerRecordMax must be in [1, 10^7], got " + mutationsPerRecordMax);
        }
        if (recordBytesMax < 64 || recordBytesMax > HARD_RECORD_BYTES_MAX) {
            throw new IllegalArgumentException("recordBytesMax must be in [64, 256 MiB], got " + recordBytesMax);
        }
    }

    public void checkKey(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        if (key.length > keyBytesMax) {
            throw new LimitExceededException("key size", key.length, keyBytesMax, "keyBytesMax");
        }
    }

    public void checkValue(byte[] value) {
        if (value != null && value.length > valueBytesMax) {
            throw new LimitExceededException("value size", value.length, valueBytesMax, "valueBytesMax");
        }
    }
}

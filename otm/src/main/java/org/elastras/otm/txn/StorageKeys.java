package org.elastras.otm.txn;

import java.util.Arrays;

/**
 * The storage key of a row in its partition's store. All tables of a partition share one
 * {@code PartitionStore}; the table id in front keeps each table's rows contiguous and in primary
 * key order.
 *
 * <p>Layout:
 * <pre>
 *   table id     2 bytes big-endian: the table's position in DatabaseSchema.tables() plus one (1..65535)
 *   primary key  the KeyCodec encoding of the row's primary key values (docs/catalog.md)
 * </pre>
 * Table ids are positions in declaration order, so a schema may gain tables at its end but must
 * never reorder or drop them while data exists. Table id 0 is reserved for commit markers
 * ({@link CommitTag}). Stateless.
 */
final class StorageKeys {

    static final int TABLE_ID_BYTES = 2;
    static final int TABLE_ID_MAX = 0xFFFF;

    private StorageKeys() {
    }

    /** The storage key of the row with encoded primary key {@code encodedKey} in table {@code tableId}. */
    static byte[] rowKey(int tableId, byte[] encodedKey) {
        checkTableId(tableId);
        byte[] key = new byte[TABLE_ID_BYTES + encodedKey.length];
        key[0] = (byte) (tableId >>> 8);
        key[1] = (byte) tableId;
        System.arraycopy(encodedKey, 0, key, TABLE_ID_BYTES, encodedKey.length);
        return key;
    }

    /** The first storage key past every row of table {@code tableId}. */
    static byte[] tableEnd(int tableId) {
        checkTableId(tableId);
        if (tableId == TABLE_ID_MAX) {
            return new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF};
        }
        return rowKey(tableId + 1, new byte[0]);
    }

    /** The encoded primary key inside a storage key of table {@code tableId}. */
    static byte[] encodedKey(int tableId, byte[] storageKey) {
        if (storageKey.length < TABLE_ID_BYTES
                || ((storageKey[0] & 0xFF) << 8 | (storageKey[1] & 0xFF)) != tableId) {
            throw new IllegalStateException("storage key of " + storageKey.length + " bytes is not a row key of table id "
                    + tableId);
        }
        return Arrays.copyOfRange(storageKey, TABLE_ID_BYTES, storageKey.length);
    }

    private static void checkTableId(int tableId) {
        if (tableId < 1 || tableId > TABLE_ID_MAX) {
            throw new IllegalArgumentException("table id must be in [1, " + TABLE_ID_MAX + "], got " + tableId);
        }
    }
}

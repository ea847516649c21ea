package org.elastras.experiments.otm;

import java.util.List;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;

/**
 * The one table both systems of {@link ProcedureBenchmark} hold: ITEMS(ID BIGINT primary key,
 * BALANCE BIGINT, NAME VARCHAR(40), NOTE VARCHAR(64)), about 100 bytes of column data a row, ids
 * 0..rows-1, every balance 0 after loading. The row contents are a function of the id, so both
 * loaders write the same bytes. Immutable constants and pure functions.
 */
final class ItemTable {

    static final String DATABASE = "PROCBENCH";
    static final String TABLE = "ITEMS";
    static final long PARTITION_ID = 1;
    /** Keys one transaction reads. */
    static final int READS_PER_TRANSACTION = 10;
    /** Of those, how many it writes back (the first ones). */
    static final int WRITES_PER_TRANSACTION = 5;
    static final int NAME_LENGTH = 32;
    static final int NOTE_LENGTH = 56;

    /** Columns in order; the OTM's rows are lists in this order. */
    static final int COLUMN_ID = 0;
    static final int COLUMN_BALANCE = 1;
    static final int COLUMN_NAME = 2;
    static final int COLUMN_NOTE = 3;

    /** The same table in Derby's SQL. */
    static final String DERBY_DDL = "CREATE TABLE ITEMS (ID BIGINT NOT NULL PRIMARY KEY, BALANCE BIGINT NOT NULL,"
            + " NAME VARCHAR(40) NOT NULL, NOTE VARCHAR(64) NOT NULL)";

    private ItemTable() {
    }

    static DatabaseSchema schema() {
        return DatabaseSchema.singlePartition(DATABASE)
                .plain(TABLE, t -> t.column("ID", ColumnType.BIGINT)
                        .column("BALANCE", ColumnType.BIGINT)
                        .column("NAME", ColumnType.varchar(40))
                        .column("NOTE", ColumnType.varchar(64))
                        .key("ID"))
                .build();
    }

    /** NAME of row {@code id}: 32 characters. */
    static String name(long id) {
        return pad("item-" + id + "-", NAME_LENGTH, 'n');
    }

    /** NOTE of row {@code id}: 56 characters. */
    static String note(long id) {
        return pad("note-" + Long.toHexString(id * 0x9E3779B97F4A7C15L) + "-", NOTE_LENGTH, 'x');
    }

    /** The loaded row {@code id}, in column order, balance 0. */
    static List<Object> initialRow(long id) {
        return List.of(id, 0L, name(id), note(id));
    }

    private static String pad(String prefix, int length, char fill) {
        if (prefix.length() >= length) {
            return prefix.substring(0, length);
        }
        StringBuilder s = new StringBuilder(length).append(prefix);
        while (s.length() < length) {
            s.append(fill);
        }
        return s.toString();
    }
}

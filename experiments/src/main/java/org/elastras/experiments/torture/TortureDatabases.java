package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;

/**
 * The two databases of a torture run and how their keys map to partitions. Both are
 * tree-partitioned by a BIGINT root key and split at multiples of {@link #PARTITION_SPAN}, so
 * partition {@code p} (0-based) holds the keys {@code p * PARTITION_SPAN} up to the next multiple.
 * A transaction is begun on a partition by the first key of its range; list-append transactions
 * keep to that partition, bank transfers may reach a second one. Immutable constants only.
 *
 * <ul>
 *   <li>{@code TLIST}: {@code LISTS(K BIGINT, V VARCHAR(8192))}, V a comma-separated list of the
 *       values appended to K (list-append workload).</li>
 *   <li>{@code TBANK}: {@code ACCOUNT(ID BIGINT, BALANCE BIGINT)} and its child table
 *       {@code ENTRY(ID BIGINT, T BIGINT, DELTA BIGINT)}, key {@code (ID, T)}: the ledger, one row per
 *       account a transfer {@code T} changed, in that account's partition (bank workload,
 *       {@link BankLedger}; its procedures are {@link BankProcedures}).</li>
 * </ul>
 */
final class TortureDatabases {

    static final String LIST_DATABASE = "TLIST";
    static final String LIST_TABLE = "LISTS";
    /** Longest list value: 8192 characters, about 900 appended values of 8 digits. */
    static final int LIST_CHARS_MAX = 8_192;

    static final String BANK_DATABASE = "TBANK";
    static final String BANK_TABLE = "ACCOUNT";
    static final String LEDGER_TABLE = "ENTRY";

    /** Keys per partition's range; partition p starts at p * PARTITION_SPAN. */
    static final long PARTITION_SPAN = 1_000_000;
    static final int PARTITIONS_MAX = 64;

    private TortureDatabases() {
    }

    static DatabaseSchema listSchema() {
        return DatabaseSchema.tree(LIST_DATABASE)
                .root(LIST_TABLE, t -> t.column("K", ColumnType.BIGINT).column("V", ColumnType.varchar(LIST_CHARS_MAX)).key("K"))
                .build();
    }

    static DatabaseSchema bankSchema() {
        return DatabaseSchema.tree(BANK_DATABASE)
                .root(BANK_TABLE, t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .child(LEDGER_TABLE, t -> t.column("ID", ColumnType.BIGINT).column("T", ColumnType.BIGINT)
                        .column("DELTA", ColumnType.BIGINT).key("ID", "T"))
                .build();
    }

    /** The root-key boundaries that split a database into {@code partitions} partitions. */
    static List<List<Object>> boundaries(int partitions) {
        if (partitions < 1 || partitions > PARTITIONS_MAX) {
            throw new IllegalArgumentException("partitions must be 1 to " + PARTITIONS_MAX + ", got " + partitions);
        }
        List<List<Object>> boundaries = new ArrayList<>();
        for (int p = 1; p < partitions; p++) {
            boundaries.add(List.of(p * PARTITION_SPAN));
        }
        return boundaries;
    }

    /** The {@code index}-th key of partition {@code partition}. */
    static long key(int partition, long index) {
        if (index < 0 || index >= PARTITION_SPAN) {
            throw new IllegalArgumentException("key index must be 0 to " + (PARTITION_SPAN - 1) + ", got " + index);
        }
        return partition * PARTITION_SPAN + index;
    }

    /** The root key that addresses partition {@code partition}. */
    static List<Object> rootKey(int partition) {
        return List.of(key(partition, 0));
    }

    /** The partition (0-based) that holds {@code key}. */
    static int partitionOf(long key) {
        return (int) (key / PARTITION_SPAN);
    }
}

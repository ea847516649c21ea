package org.elastras.experiments.otm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elastras.otm.server.ProcedureLibrary;
import org.elastras.otm.txn.Procedure;
import org.elastras.otm.txn.ProcedureAbort;
import org.elastras.otm.txn.RowTransaction;

/**
 * The stored procedures of database PROCBENCH ({@link ItemTable}), found by the OTM through
 * {@code META-INF/services/org.elastras.otm.server.ProcedureLibrary}. Immutable.
 *
 * <ul>
 *   <li>{@code readTenWriteFive(k0..k9)}: the measured transaction. Reads the ten rows, then adds
 *       one to the BALANCE of the first five and writes them back; returns the sum of the ten
 *       balances read. Rolls back if a key is missing.</li>
 *   <li>{@code load(fromId, count)}: inserts rows {@code fromId .. fromId+count-1} with balance 0.</li>
 *   <li>{@code sumBalances(fromId, limit)}: scans up to {@code limit} rows from {@code fromId}; returns
 *       [sum of BALANCE, rows seen, last id seen or -1]. For the after-run check.</li>
 * </ul>
 * {@link DerbyTarget} runs the same statements through JDBC.
 */
public final class ItemProcedures implements ProcedureLibrary {

    /** Largest {@code count} of one {@code load} call: well under the OTM's write-set limit. */
    static final int LOAD_ROWS_MAX = 2_000;
    /** Largest {@code limit} of one {@code sumBalances} call: the OTM's scan limit. */
    static final int SCAN_ROWS_MAX = 10_000;

    @Override
    public String database() {
        return ItemTable.DATABASE;
    }

    @Override
    public Map<String, Procedure> procedures() {
        return Map.of("readTenWriteFive", ItemProcedures::readTenWriteFive, "readTen", ItemProcedures::readTen,
                "empty", (txn, args) -> null, "load", ItemProcedures::load, "sumBalances", ItemProcedures::sumBalances);
    }

    private static Object readTenWriteFive(RowTransaction txn, List<Object> args) {
        if (args.size() != ItemTable.READS_PER_TRANSACTION) {
            throw new ProcedureAbort("readTenWriteFive takes " + ItemTable.READS_PER_TRANSACTION + " keys, got " + args.size());
        }
        List<List<Object>> rows = new ArrayList<>(ItemTable.READS_PER_TRANSACTION);
        long sum = 0;
        for (Object key : args) {
            List<Object> row = txn.get(ItemTable.TABLE, List.of(((Number) key).longValue()));
            if (row == null) {
                throw new ProcedureAbort("no item " + key + "; load the table first");
            }
            rows.add(row);
            sum += (Long) row.get(ItemTable.COLUMN_BALANCE);
        }
        for (int i = 0; i < ItemTable.WRITES_PER_TRANSACTION; i++) {
            List<Object> row = new ArrayList<>(rows.get(i));
            row.set(ItemTable.COLUMN_BALANCE, (Long) row.get(ItemTable.COLUMN_BALANCE) + 1);
            txn.put(ItemTable.TABLE, row);
        }
        return sum;
    }

    /** Diagnostic: the reads of {@code readTenWriteFive} without its writes. */
    private static Object readTen(RowTransaction txn, List<Object> args) {
        long sum = 0;
        for (Object key : args) {
            List<Object> row = txn.get(ItemTable.TABLE, List.of(((Number) key).longValue()));
            if (row == null) {
                throw new ProcedureAbort("no item " + key + "; load the table first");
            }
            sum += (Long) row.get(ItemTable.COLUMN_BALANCE);
        }
        return sum;
    }

    private static Object load(RowTransaction txn, List<Object> args) {
        long from = ((Number) args.get(0)).longValue();
        int count = ((Number) args.get(1)).intValue();
        if (count < 1 || count > LOAD_ROWS_MAX) {
            throw new ProcedureAbort("load count must be 1.." + LOAD_ROWS_MAX + ", got " + count);
        }
        for (long id = from; id < from + count; id++) {
            txn.put(ItemTable.TABLE, ItemTable.initialRow(id));
        }
        return count;
    }

    private static Object sumBalances(RowTransaction txn, List<Object> args) {
        long from = ((Number) args.get(0)).longValue();
        int limit = ((Number) args.get(1)).intValue();
        if (limit < 1 || limit > SCAN_ROWS_MAX) {
            throw new ProcedureAbort("sumBalances limit must be 1.." + SCAN_ROWS_MAX + ", got " + limit);
        }
        List<List<Object>> rows = txn.scan(ItemTable.TABLE, List.of(from), null, limit);
        long sum = 0;
        long last = -1;
        for (List<Object> row : rows) {
            sum += (Long) row.get(ItemTable.COLUMN_BALANCE);
            last = (Long) row.get(ItemTable.COLUMN_ID);
        }
        return List.of(sum, (long) rows.size(), last);
    }
}

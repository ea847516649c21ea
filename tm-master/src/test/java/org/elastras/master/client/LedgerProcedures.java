package org.elastras.master.client;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.otm.server.ProcedureLibrary;
import org.elastras.otm.txn.Procedure;
import org.elastras.otm.txn.ProcedureAbort;
import org.elastras.otm.txn.RowTransaction;

/**
 * The test database LEDGER and its stored procedures, loaded by every OTM of the client's end-to-end
 * tests (in-process or child process) through {@code META-INF/services}.
 *
 * <p>LEDGER is tree-partitioned by account: ACCOUNT(A_ID INT, TOTAL BIGINT) is the root table,
 * RECEIPT(A_ID, R_ID VARCHAR(64), TOTAL) a child holding the request ids already applied.
 */
public final class LedgerProcedures implements ProcedureLibrary {

    static final String DATABASE = "LEDGER";

    /**
     * Gates of {@code transferAtGate}, by name (in-process OTMs only): a call counts down the
     * gate's first latch once it read both accounts, then waits up to 30 s for its second.
     */
    static final Map<String, CountDownLatch[]> GATES = new ConcurrentHashMap<>();

    static DatabaseSchema schema() {
        return DatabaseSchema.tree(DATABASE)
                .root("ACCOUNT", t -> t.column("A_ID", ColumnType.INT).column("TOTAL", ColumnType.BIGINT).key("A_ID"))
                .child("RECEIPT", t -> t.column("A_ID", ColumnType.INT).column("R_ID", ColumnType.varchar(64))
                        .column("TOTAL", ColumnType.BIGINT).key("A_ID", "R_ID"))
                .build();
    }

    @Override
    public String database() {
        return DATABASE;
    }

    @Override
    public Map<String, Procedure> procedures() {
        return Map.of(
                // isolation(a): the isolation its transaction runs at (as the call asked), by name.
                "isolation", (txn, args) -> txn.isolation().name(),
                // increment(a): adds one to account a (creating it at 1); returns the new total. Not idempotent.
                "increment", (txn, args) -> {
                    int a = ((Number) args.get(0)).intValue();
                    List<Object> row = txn.get("ACCOUNT", List.of(a));
                    long total = (row == null ? 0 : (Long) row.get(1)) + 1;
                    txn.put("ACCOUNT", List.of(a, total));
                    return total;
                },
                // incrementOnce(a, requestId): like increment, but a request id already applied changes
                // nothing and returns the total it produced then. Idempotent.
                "incrementOnce", (txn, args) -> {
                    int a = ((Number) args.get(0)).intValue();
                    String requestId = (String) args.get(1);
                    List<Object> receipt = txn.get("RECEIPT", List.of(a, requestId));
                    if (receipt != null) {
                        return receipt.get(2);
                    }
                    List<Object> row = txn.get("ACCOUNT", List.of(a));
                    long total = (row == null ? 0 : (Long) row.get(1)) + 1;
                    txn.put("ACCOUNT", List.of(a, total));
                    txn.put("RECEIPT", List.of(a, requestId, total));
                    return total;
                },
                // total(a): the account's total, 0 if it does not exist.
                "total", (txn, args) -> {
                    List<Object> row = txn.get("ACCOUNT", List.of(((Number) args.get(0)).intValue()));
                    return row == null ? 0L : row.get(1);
                },
                // transfer(from, to, amount, receipt): moves amount from account from (this partition)
                // to account to (any partition: a cross-partition transaction) and records a receipt
                // under to; returns from's new total.
                "transfer", (txn, args) -> transfer(txn, args, null),
                // transferAtGate(from, to, amount, receipt, gate): transfer, but after reading both
                // accounts (a branch open on to's partition) it waits at the gate named (GATES), if any.
                "transferAtGate", (txn, args) -> transfer(txn, args, GATES.get((String) args.get(4))),
                // sum(accounts...): the total of several accounts, anywhere, at one snapshot.
                "sum", (txn, args) -> {
                    long sum = 0;
                    for (Object a : args) {
                        sum += (Long) txn.get("ACCOUNT", List.of(((Number) a).intValue())).get(1);
                    }
                    return sum;
                },
                // refuse(a): rolls back on purpose after writing.
                "refuse", (txn, args) -> {
                    txn.put("ACCOUNT", List.of(((Number) args.get(0)).intValue(), -1L));
                    throw new ProcedureAbort("refused on purpose");
                });
    }

    /** transfer(from, to, amount, receipt), waiting at {@code gate} (if not null) once both accounts are read. */
    private static long transfer(RowTransaction txn, List<Object> args, CountDownLatch[] gate) {
        int from = ((Number) args.get(0)).intValue();
        int to = ((Number) args.get(1)).intValue();
        long amount = ((Number) args.get(2)).longValue();
        long fromTotal = (Long) txn.get("ACCOUNT", List.of(from)).get(1) - amount;
        long toTotal = (Long) txn.get("ACCOUNT", List.of(to)).get(1) + amount;
        if (gate != null) {
            gate[0].countDown();
            try {
                gate[1].await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        txn.put("ACCOUNT", List.of(from, fromTotal));
        txn.put("ACCOUNT", List.of(to, toTotal));
        txn.put("RECEIPT", List.of(to, (String) args.get(3), amount));
        return fromTotal;
    }
}

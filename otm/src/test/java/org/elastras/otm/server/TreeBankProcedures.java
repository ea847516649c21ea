package org.elastras.otm.server;

import java.util.List;
import java.util.Map;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.otm.txn.Procedure;

/**
 * The test database TREEBANK (ACCOUNT(ID, BALANCE), tree-partitioned by ID) and procedures that
 * reach accounts on any partition, loaded by every OTM in tests through {@code META-INF/services}.
 */
public final class TreeBankProcedures implements ProcedureLibrary {

    static final String DATABASE = "TREEBANK";

    static DatabaseSchema schema() {
        return DatabaseSchema.tree(DATABASE)
                .root("ACCOUNT", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    @Override
    public String database() {
        return DATABASE;
    }

    @Override
    public Map<String, Procedure> procedures() {
        return Map.of(
                // open(id, balance): creates an account.
                "open", (txn, args) -> {
                    txn.put("ACCOUNT", List.of(((Number) args.get(0)).longValue(), ((Number) args.get(1)).longValue()));
                    return null;
                },
                // transfer(from, to, amount): from is on the call's partition, to anywhere.
                "transfer", (txn, args) -> {
                    long from = ((Number) args.get(0)).longValue();
                    long to = ((Number) args.get(1)).longValue();
                    long amount = ((Number) args.get(2)).longValue();
                    long a = (Long) txn.get("ACCOUNT", List.of(from)).get(1);
                    long b = (Long) txn.get("ACCOUNT", List.of(to)).get(1);
                    txn.put("ACCOUNT", List.of(from, a - amount));
                    txn.put("ACCOUNT", List.of(to, b + amount));
                    return a - amount;
                },
                // slowTransfer(from, to, amount, pauseMs): transfer, with a pause between its reads.
                "slowTransfer", (txn, args) -> {
                    long from = ((Number) args.get(0)).longValue();
                    long to = ((Number) args.get(1)).longValue();
                    long amount = ((Number) args.get(2)).longValue();
                    long a = (Long) txn.get("ACCOUNT", List.of(from)).get(1);
                    try {
                        Thread.sleep(((Number) args.get(3)).longValue());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    }
                    long b = (Long) txn.get("ACCOUNT", List.of(to)).get(1);
                    txn.put("ACCOUNT", List.of(from, a - amount));
                    txn.put("ACCOUNT", List.of(to, b + amount));
                    return a - amount;
                },
                // sum(ids...): the balances of accounts anywhere, read at one snapshot.
                "sum", (txn, args) -> {
                    long sum = 0;
                    for (Object id : args) {
                        sum += (Long) txn.get("ACCOUNT", List.of(((Number) id).longValue())).get(1);
                    }
                    return sum;
                });
    }
}

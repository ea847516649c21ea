package org.elastras.otm.server;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.otm.txn.Procedure;
import org.elastras.otm.txn.ProcedureAbort;

/**
 * The test database BANK (one table, ACCOUNTS(ID, BALANCE)) and its procedures, loaded by every
 * OTM in tests through {@code META-INF/services}.
 */
public final class BankProcedures implements ProcedureLibrary {

    static final String DATABASE = "BANK";

    /** Runs of {@code observedIncrement} in progress now, the most at once, and finished: tests reset them. */
    static final AtomicInteger OBSERVED_RUNNING = new AtomicInteger();
    static final AtomicInteger OBSERVED_MOST = new AtomicInteger();
    static final AtomicInteger OBSERVED_RUNS = new AtomicInteger();

    static DatabaseSchema schema() {
        return DatabaseSchema.singlePartition(DATABASE)
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    @Override
    public String database() {
        return DATABASE;
    }

    @Override
    public Map<String, Procedure> procedures() {
        return Map.of(
                // increment(id): adds one to an account (creating it at 1) and returns the new balance.
                "increment", (txn, args) -> {
                    long id = ((Number) args.get(0)).longValue();
                    List<Object> row = txn.get("ACCOUNTS", List.of(id));
                    long balance = row == null ? 0 : (Long) row.get(1);
                    txn.put("ACCOUNTS", List.of(id, balance + 1));
                    return balance + 1;
                },
                // observedIncrement(id, ms): increment that takes at least ms, counted in OBSERVED_*.
                "observedIncrement", (txn, args) -> {
                    OBSERVED_MOST.accumulateAndGet(OBSERVED_RUNNING.incrementAndGet(), Math::max);
                    try {
                        long id = ((Number) args.get(0)).longValue();
                        List<Object> row = txn.get("ACCOUNTS", List.of(id));
                        long balance = row == null ? 0 : (Long) row.get(1);
                        txn.put("ACCOUNTS", List.of(id, balance + 1));
                        Thread.sleep(((Number) args.get(1)).longValue());
                        return balance + 1;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted", e);
                    } finally {
                        OBSERVED_RUNNING.decrementAndGet();
                        OBSERVED_RUNS.incrementAndGet();
                    }
                },
                // transfer(from, to, amount): moves money; rolls back if it would overdraw.
                "transfer", (txn, args) -> {
                    long from = ((Number) args.get(0)).longValue();
                    long to = ((Number) args.get(1)).longValue();
                    long amount = ((Number) args.get(2)).longValue();
                    List<Object> a = txn.get("ACCOUNTS", List.of(from));
                    List<Object> b = txn.get("ACCOUNTS", List.of(to));
                    long balanceA = a == null ? 0 : (Long) a.get(1);
                    long balanceB = b == null ? 0 : (Long) b.get(1);
                    if (balanceA < amount) {
                        throw new ProcedureAbort("account " + from + " has " + balanceA + ", cannot pay " + amount);
                    }
                    txn.put("ACCOUNTS", List.of(from, balanceA - amount));
                    txn.put("ACCOUNTS", List.of(to, balanceB + amount));
                    return null;
                });
    }
}

package org.elastras.experiments.torture;

import java.util.List;
import java.util.Map;
import org.elastras.otm.server.ProcedureLibrary;
import org.elastras.otm.txn.Procedure;
import org.elastras.otm.txn.ProcedureAbort;
import org.elastras.otm.txn.RowTransaction;

/**
 * The stored procedures of the torture bank, database {@code TBANK} ({@link TortureDatabases}),
 * found by every OTM through {@code META-INF/services/org.elastras.otm.server.ProcedureLibrary}.
 * Immutable. All keys of one call lie in one partition.
 *
 * <ul>
 *   <li>{@code open(firstId, count, balance)}: creates accounts {@code firstId .. firstId+count-1}
 *       with {@code balance} each; returns count.</li>
 *   <li>{@code transfer(from, to, amount, transferId)}: moves {@code amount} from account
 *       {@code from} to {@code to} if {@code from} holds at least that much, and writes the two
 *       ledger entries {@code (from, transferId, -amount)} and {@code (to, transferId, amount)}
 *       ({@link BankLedger}); returns 1 if it moved, 0 if not (and wrote nothing). Rolls back if an
 *       account is missing.</li>
 *   <li>{@code total(firstId, lastId)}: [sum of balances, accounts seen] over the ids in range.</li>
 * </ul>
 */
public final class BankProcedures implements ProcedureLibrary {

    /** Most accounts one {@code open} or {@code total} touches: well under the OTM's limits. */
    static final int ACCOUNTS_PER_CALL_MAX = 1_000;

    @Override
    public String database() {
        return TortureDatabases.BANK_DATABASE;
    }

    @Override
    public Map<String, Procedure> procedures() {
        return Map.of("open", BankProcedures::open, "transfer", BankProcedures::transfer, "total", BankProcedures::total);
    }

    private static Object open(RowTransaction txn, List<Object> args) {
        long first = ((Number) args.get(0)).longValue();
        int count = ((Number) args.get(1)).intValue();
        long balance = ((Number) args.get(2)).longValue();
        if (count < 1 || count > ACCOUNTS_PER_CALL_MAX) {
            throw new ProcedureAbort("open count must be 1.." + ACCOUNTS_PER_CALL_MAX + ", got " + count);
        }
        for (long id = first; id < first + count; id++) {
            txn.put(TortureDatabases.BANK_TABLE, List.of(id, balance));
        }
        return count;
    }

    private static Object transfer(RowTransaction txn, List<Object> args) {
        if (args.size() != 4) {
            throw new ProcedureAbort("transfer takes (from, to, amount, transferId), got " + args);
        }
        long from = ((Number) args.get(0)).longValue();
        long to = ((Number) args.get(1)).longValue();
        long amount = ((Number) args.get(2)).longValue();
        long transferId = ((Number) args.get(3)).longValue();
        if (from == to || amount <= 0) {
            throw new ProcedureAbort("transfer needs two accounts and a positive amount, got " + args);
        }
        long fromBalance = balance(txn, from);
        long toBalance = balance(txn, to);
        if (fromBalance < amount) {
            return 0;
        }
        txn.put(TortureDatabases.BANK_TABLE, List.of(from, fromBalance - amount));
        txn.put(TortureDatabases.BANK_TABLE, List.of(to, toBalance + amount));
        txn.put(TortureDatabases.LEDGER_TABLE, List.of(from, transferId, -amount));
        txn.put(TortureDatabases.LEDGER_TABLE, List.of(to, transferId, amount));
        return 1;
    }

    private static long balance(RowTransaction txn, long id) {
        List<Object> row = txn.get(TortureDatabases.BANK_TABLE, List.of(id));
        if (row == null) {
            throw new ProcedureAbort("no account " + id + "; open the accounts first");
        }
        return (Long) row.get(1);
    }

    private static Object total(RowTransaction txn, List<Object> args) {
        long first = ((Number) args.get(0)).longValue();
        long last = ((Number) args.get(1)).longValue();
        List<List<Object>> rows = txn.scan(TortureDatabases.BANK_TABLE, List.of(first), List.of(last), ACCOUNTS_PER_CALL_MAX);
        long sum = 0;
        for (List<Object> row : rows) {
            sum += (Long) row.get(1);
        }
        return List.of(sum, (long) rows.size());
    }
}

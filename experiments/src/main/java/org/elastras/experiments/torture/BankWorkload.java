package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.Optional;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.Session;
import org.elastras.experiments.history.Outcome;

/**
 * The bank workload on database {@code TBANK}: {@code accountsPerPartition} accounts in each
 * partition, each opened with {@link #INITIAL_BALANCE}. Transfer threads move 1 to
 * {@link #TRANSFER_AMOUNT_MAX} between two accounts; {@code crossPartitionPercent} of the transfers
 * take their accounts from two different partitions (an interactive transaction begun on one of
 * them as {@link CrossPartitionCoordinator} says, with a branch on the other), the rest from one partition (on even
 * threads through the stored procedure {@code transfer}, on odd ones as interactive transactions).
 * Every transfer also writes a ledger entry per account ({@link BankLedger}), so that the end of the
 * run can tell which transfers committed.
 *
 * <p>Reader threads check, during the run, the grand total: every account of every partition read
 * in one interactive transaction (one snapshot across the partitions) must sum to
 * {@code partitions * accountsPerPartition * INITIAL_BALANCE}. When no transfer crosses partitions
 * they also read each partition's total (procedure {@code total}), which must then stay
 * {@code accountsPerPartition * INITIAL_BALANCE}; a cross-partition transfer changes two partitions'
 * totals, so those are no invariant then. Readers record every total that differs.
 *
 * <p>Thread-safety: {@link #open}, {@link #start}, {@link #stop} and {@link #finalState} from one
 * controlling thread; counters from any.
 */
final class BankWorkload {

    record Settings(int partitions, int accountsPerPartition, int transferThreads, int readerThreads, int crossPartitionPercent,
            CrossPartitionCoordinator coordinator, long seed) {
        Settings {
            java.util.Objects.requireNonNull(coordinator, "coordinator");
            if (partitions < 1 || partitions > TortureDatabases.PARTITIONS_MAX) {
                throw new IllegalArgumentException("partitions must be 1 to " + TortureDatabases.PARTITIONS_MAX);
            }
            if (accountsPerPartition < 2 || accountsPerPartition > BankProcedures.ACCOUNTS_PER_CALL_MAX) {
                throw new IllegalArgumentException("accountsPerPartition must be 2 to " + BankProcedures.ACCOUNTS_PER_CALL_MAX);
            }
            if (transferThreads < 0 || transferThreads > 64 || readerThreads < 0 || readerThreads > 64) {
                throw new IllegalArgumentException("0 to 64 transfer and reader threads");
            }
            if (crossPartitionPercent < 0 || crossPartitionPercent > 100 || (crossPartitionPercent > 0 && partitions < 2)) {
                throw new IllegalArgumentException("the cross-partition percentage must be 0 to 100, and 0 with one partition; got "
                        + crossPartitionPercent + " with " + partitions + " partitions");
            }
        }

        long partitionTotal() {
            return accountsPerPartition * INITIAL_BALANCE;
        }

        long grandTotal() {
            return partitions * partitionTotal();
        }
    }

    static final long INITIAL_BALANCE = 1_000;
    static final long TRANSFER_AMOUNT_MAX = 50;
    static final int WRONG_TOTALS_KEPT_MAX = 100;
    static final long JOIN_TIMEOUT_MS = 90_000;
    /** Most transfers recorded for the ledger check; past it the transfer threads stop (and say so). */
    static final int TRANSFERS_RECORDED_MAX = 2_000_000;
    /** Rows one scan of an account's ledger entries asks for. */
    static final int LEDGER_SCAN_ROWS = 1_000;

    private final ElasTrasClient client;
    private final Settings settings;
    private final TransferCounts sameCounts = new TransferCounts();
    private final TransferCounts crossCounts = new TransferCounts();
    private final AtomicLong partitionTotalsRead = new AtomicLong();
    private final AtomicLong grandTotalsRead = new AtomicLong();
    private final AtomicLong readsFailed = new AtomicLong();
    private final AtomicLong nextTransferId = new AtomicLong(1);
    /** The largest CTS of an acknowledged commit of any thread. */
    private final AtomicLong ctsMax = new AtomicLong();
    /** Totals that differed from the invariant, described. Bounded. */
    private final List<String> wrongTotals = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong wrongTotalCount = new AtomicLong();
    private final Map<String, AtomicLong> failuresByName = new ConcurrentHashMap<>();
    /** Every transfer attempted, with what its client was told. Guarded by itself; bounded. */
    private final List<BankLedger.Transfer> transfers = new ArrayList<>();
    private volatile boolean transfersTruncated;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;

    private final CommitTimestamps commitTimestamps;

    /** Outcome counters of one kind of transfer. Thread-safe. */
    private static final class TransferCounts {
        final AtomicLong ok = new AtomicLong();
        final AtomicLong fail = new AtomicLong();
        final AtomicLong unknown = new AtomicLong();
    }

    BankWorkload(ElasTrasClient client, CommitTimestamps commitTimestamps, Settings settings) {
        this.client = Objects.requireNonNull(client, "client");
        this.commitTimestamps = Objects.requireNonNull(commitTimestamps, "commitTimestamps");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /** Opens every account; before any fault (a lost answer here fails the run's setup). */
    void open() {
        Session session = client.newSession();
        for (int p = 0; p < settings.partitions(); p++) {
            session.callIdempotent(TortureDatabases.BANK_DATABASE, "open", TortureDatabases.rootKey(p),
                    List.of(TortureDatabases.key(p, 0), settings.accountsPerPartition(), INITIAL_BALANCE));
        }
        ctsMax.accumulateAndGet(session.lastCommitCts(), Math::max);
    }

    void start() {
        for (int t = 0; t < settings.transferThreads(); t++) {
            Random random = new Random(settings.seed() * 7_919L + t);
            boolean procedure = t % 2 == 0;
            String name = "bank-transfer-" + t;
            threads.add(thread(name, () -> runTransfers(name, random, procedure)));
        }
        for (int t = 0; t < settings.readerThreads(); t++) {
            Random random = new Random(settings.seed() * 104_729L + t);
            threads.add(thread("bank-reader-" + t, () -> runReader(random)));
        }
        threads.forEach(Thread::start);
    }

    private static Thread thread(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        return thread;
    }

    void stop() throws InterruptedException {
        stopping = true;
        for (Thread thread : threads) {
            thread.join(JOIN_TIMEOUT_MS);
            if (thread.isAlive()) {
                throw new IllegalStateException(thread.getName() + " did not finish within " + JOIN_TIMEOUT_MS + " ms");
            }
        }
    }

    /**
     * Transfers until stopped. Same-partition transfers go through the procedure when
     * {@code procedure}; cross-partition ones are always interactive (procedures touch one partition).
     */
    private void runTransfers(String name, Random random, boolean procedure) {
        Session session = client.newSession();
        while (!stopping) {
            long transferId = nextTransferId.getAndIncrement();
            boolean cross = random.nextInt(100) < settings.crossPartitionPercent();
            int p = random.nextInt(settings.partitions());
            int q = cross ? (p + 1 + random.nextInt(settings.partitions() - 1)) % settings.partitions() : p;
            long from = TortureDatabases.key(p, random.nextInt(settings.accountsPerPartition()));
            long to = TortureDatabases.key(q, random.nextInt(settings.accountsPerPartition() - (cross ? 0 : 1)));
            if (!cross && to >= from) {
                to++;
            }
            long amount = 1 + random.nextInt((int) TRANSFER_AMOUNT_MAX);
            TransferCounts counts = cross ? crossCounts : sameCounts;
            try {
                long writtenAtCts; // -1 if the transfer did not move money (a read-only commit)
                if (procedure && !cross) {
                    Object moved = session.call(TortureDatabases.BANK_DATABASE, "transfer", TortureDatabases.rootKey(p),
                            List.of(from, to, amount, transferId));
                    writtenAtCts = ((Number) moved).longValue() == 1 ? session.lastCommitCts() : -1;
                } else {
                    writtenAtCts = transferInteractively(session, settings.coordinator().of(p, q), from, to, amount, transferId);
                }
                counts.ok.incrementAndGet();
                if (!record(new BankLedger.Transfer(transferId, from, to, amount, cross, Outcome.OK, writtenAtCts >= 0))) {
                    return;
                }
                if (writtenAtCts >= 0) {
                    commitTimestamps.record(writtenAtCts, name + " transfer " + transferId + (cross ? " (cross-partition)" : ""));
                }
                ctsMax.accumulateAndGet(session.lastCommitCts(), Math::max);
            } catch (RuntimeException e) {
                failuresByName.computeIfAbsent((cross ? "cross:" : "") + ClientOutcome.name(e), k -> new AtomicLong()).incrementAndGet();
                Outcome outcome = ClientOutcome.of(e);
                if (outcome == Outcome.FAIL) {
                    counts.fail.incrementAndGet();
                } else {
                    counts.unknown.incrementAndGet();
                    session = client.newSession();
                }
                if (!record(new BankLedger.Transfer(transferId, from, to, amount, cross, outcome, false))) {
                    return;
                }
            }
        }
    }

    /** One transfer as an interactive transaction begun on partition {@code p}; its CTS, or -1 if it moved nothing. */
    private static long transferInteractively(Session session, int p, long from, long to, long amount, long transferId) {
        return session.runInTransaction(TortureDatabases.BANK_DATABASE, TortureDatabases.rootKey(p), txn -> {
            long fromBalance = balance(txn.get(TortureDatabases.BANK_TABLE, List.of(from)));
            long toBalance = balance(txn.get(TortureDatabases.BANK_TABLE, List.of(to)));
            if (fromBalance < amount) {
                return -1L;
            }
            txn.put(TortureDatabases.BANK_TABLE, Map.of("ID", from, "BALANCE", fromBalance - amount));
            txn.put(TortureDatabases.BANK_TABLE, Map.of("ID", to, "BALANCE", toBalance + amount));
            txn.put(TortureDatabases.LEDGER_TABLE, Map.of("ID", from, "T", transferId, "DELTA", -amount));
            txn.put(TortureDatabases.LEDGER_TABLE, Map.of("ID", to, "T", transferId, "DELTA", amount));
            return txn.commit();
        });
    }

    /** Records a transfer for the ledger check; false (and the thread should stop) when the record is full. */
    private boolean record(BankLedger.Transfer transfer) {
        synchronized (transfers) {
            if (transfers.size() >= TRANSFERS_RECORDED_MAX) {
                transfersTruncated = true;
                return false;
            }
            transfers.add(transfer);
            return true;
        }
    }

    private static long balance(Optional<Map<String, Object>> row) {
        return (Long) row.orElseThrow(() -> new IllegalStateException("an account is missing")).get("BALANCE");
    }

    private void runReader(Random random) {
        Session session = client.newSession();
        long reads = 0;
        while (!stopping) {
            int p = random.nextInt(settings.partitions());
            boolean grand = settings.crossPartitionPercent() > 0 || reads++ % 2 == 0;
            try {
                if (grand) {
                    long[] read = session.runInTransaction(TortureDatabases.BANK_DATABASE, TortureDatabases.rootKey(p),
                            txn -> grandTotal(txn));
                    checkGrandTotal(read[0], read[1], "reader (begun on partition " + p + ")");
                    grandTotalsRead.incrementAndGet();
                } else {
                    List<?> result = (List<?>) session.call(TortureDatabases.BANK_DATABASE, "total", TortureDatabases.rootKey(p),
                            List.of(TortureDatabases.key(p, 0), TortureDatabases.key(p, settings.accountsPerPartition() - 1)));
                    checkPartitionTotal(p, ((Number) result.get(0)).longValue(), ((Number) result.get(1)).longValue(), "reader");
                    partitionTotalsRead.incrementAndGet();
                }
            } catch (RuntimeException e) {
                readsFailed.incrementAndGet();
                failuresByName.computeIfAbsent((grand ? "grand-reader:" : "reader:") + ClientOutcome.name(e), k -> new AtomicLong())
                        .incrementAndGet();
                session = client.newSession();
            }
        }
    }

    /** [sum of every account's balance, accounts found], read in {@code txn} (one snapshot). */
    private long[] grandTotal(ClientTransaction txn) {
        long sum = 0;
        long accounts = 0;
        for (int p = 0; p < settings.partitions(); p++) {
            for (int i = 0; i < settings.accountsPerPartition(); i++) {
                Optional<Map<String, Object>> row = txn.get(TortureDatabases.BANK_TABLE, List.of(TortureDatabases.key(p, i)));
                if (row.isPresent()) {
                    sum += (Long) row.get().get("BALANCE");
                    accounts++;
                }
            }
        }
        return new long[] {sum, accounts};
    }

    private void checkPartitionTotal(int partition, long total, long accounts, String who) {
        if (total != settings.partitionTotal() || accounts != settings.accountsPerPartition()) {
            wrongTotal(who + ": partition " + partition + " total " + total + " over " + accounts + " accounts (expected "
                    + settings.partitionTotal() + " over " + settings.accountsPerPartition() + ")");
        }
    }

    private void checkGrandTotal(long total, long accounts, String who) {
        long accountsExpected = (long) settings.partitions() * settings.accountsPerPartition();
        if (total != settings.grandTotal() || accounts != accountsExpected) {
            wrongTotal(who + ": grand total " + total + " over " + accounts + " accounts (expected " + settings.grandTotal() + " over "
                    + accountsExpected + ")");
        }
    }

    private void wrongTotal(String description) {
        wrongTotalCount.incrementAndGet();
        if (wrongTotals.size() < WRONG_TOTALS_KEPT_MAX) {
            wrongTotals.add(description);
        }
    }

    /**
     * After {@link #stop}: every account's balance and ledger entries, all read in one interactive
     * transaction (one snapshot across the partitions) whose snapshot includes every acknowledged
     * transfer. Checks the grand total (and, with no cross-partition transfers, each partition's) as
     * the readers do.
     *
     * @throws IllegalStateException if it cannot be read within {@code timeoutMs}
     */
    BankLedger.FinalState finalState(long timeoutMs) throws InterruptedException {
        long atLeast = ctsMax.get();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                BankLedger.FinalState state = client.newSession().runInTransaction(TortureDatabases.BANK_DATABASE,
                        TortureDatabases.rootKey(0), txn -> txn.snapshotCts() < atLeast ? null : readState(txn));
                if (state != null) {
                    long grand = 0;
                    for (int p = 0; p < settings.partitions(); p++) {
                        long total = partitionTotal(state, p);
                        grand += total;
                        if (settings.crossPartitionPercent() == 0) {
                            checkPartitionTotal(p, total, settings.accountsPerPartition(), "final read");
                        }
                    }
                    checkGrandTotal(grand, state.balances().size(), "final read");
                    return state;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            Thread.sleep(50); // Not there yet, or a failure: read again (the session API cannot ask for a snapshot).
        }
        throw new IllegalStateException("could not read the bank's final state at a snapshot >= " + atLeast + " within " + timeoutMs
                + " ms; last error: " + last, last);
    }

    private BankLedger.FinalState readState(ClientTransaction txn) {
        Map<Long, Long> balances = new TreeMap<>();
        Map<Long, Map<Long, Long>> entries = new TreeMap<>();
        for (long account : accounts()) {
            txn.get(TortureDatabases.BANK_TABLE, List.of(account)).ifPresent(row -> balances.put(account, (Long) row.get("BALANCE")));
            Map<Long, Long> deltas = new TreeMap<>();
            long fromTransfer = 0;
            while (true) {
                // Both bounds name the account's root key, so the scan goes to the account's partition.
                List<Map<String, Object>> rows = txn.scan(TortureDatabases.LEDGER_TABLE, List.of(account, fromTransfer),
                        List.of(account), LEDGER_SCAN_ROWS);
                for (Map<String, Object> row : rows) {
                    long transfer = (Long) row.get("T");
                    if ((Long) row.get("ID") != account || deltas.put(transfer, (Long) row.get("DELTA")) != null) {
                        throw new IllegalStateException("the scan of account " + account + "'s ledger returned " + row);
                    }
                    fromTransfer = Math.max(fromTransfer, transfer + 1);
                }
                if (rows.size() < LEDGER_SCAN_ROWS) {
                    break;
                }
            }
            if (!deltas.isEmpty()) {
                entries.put(account, deltas);
            }
        }
        return new BankLedger.FinalState(balances, entries);
    }

    private long partitionTotal(BankLedger.FinalState state, int partition) {
        long total = 0;
        for (Map.Entry<Long, Long> e : state.balances().entrySet()) {
            if (TortureDatabases.partitionOf(e.getKey()) == partition) {
                total += e.getValue();
            }
        }
        return total;
    }

    /** Every account opened, in key order. */
    List<Long> accounts() {
        List<Long> accounts = new ArrayList<>();
        for (int p = 0; p < settings.partitions(); p++) {
            for (int i = 0; i < settings.accountsPerPartition(); i++) {
                accounts.add(TortureDatabases.key(p, i));
            }
        }
        return accounts;
    }

    /** Every transfer attempted, in the order recorded. */
    List<BankLedger.Transfer> transfers() {
        synchronized (transfers) {
            return List.copyOf(transfers);
        }
    }

    /** Whether transfers stopped early because {@link #TRANSFERS_RECORDED_MAX} were recorded. */
    boolean transfersTruncated() {
        return transfersTruncated;
    }

    Settings settings() {
        return settings;
    }

    long transfersOk() {
        return sameCounts.ok.get() + crossCounts.ok.get();
    }

    long transfersFail() {
        return sameCounts.fail.get() + crossCounts.fail.get();
    }

    long transfersUnknown() {
        return sameCounts.unknown.get() + crossCounts.unknown.get();
    }

    /** [OK, FAIL, UNKNOWN] of the cross-partition transfers. */
    List<Long> crossPartitionTransfers() {
        return List.of(crossCounts.ok.get(), crossCounts.fail.get(), crossCounts.unknown.get());
    }

    long partitionTotalsRead() {
        return partitionTotalsRead.get();
    }

    long grandTotalsRead() {
        return grandTotalsRead.get();
    }

    long readsFailed() {
        return readsFailed.get();
    }

    long wrongTotalCount() {
        return wrongTotalCount.get();
    }

    List<String> wrongTotals() {
        synchronized (wrongTotals) {
            return List.copyOf(wrongTotals);
        }
    }

    Map<String, Long> failuresByName() {
        Map<String, Long> out = new TreeMap<>();
        failuresByName.forEach((name, count) -> out.put(name, count.get()));
        return out;
    }
}

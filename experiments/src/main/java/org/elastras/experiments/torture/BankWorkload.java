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
import org.elastras.client.ElasTrasClient;
import org.elastras.client.Session;

/**
 * The bank workload on database {@code TBANK}: {@code accountsPerPartition} accounts in each
 * partition, each opened with {@link #INITIAL_BALANCE}; transfer threads move money between two
 * accounts of one partition (half through the stored procedure {@code transfer}, half as
 * interactive transactions), and reader threads read each partition's total (procedure
 * {@code total}). Transfers never leave their partition, so every partition's total, and every
 * total read at any snapshot, must stay {@code accountsPerPartition * INITIAL_BALANCE}; readers
 * record every total that differs. Readers cannot read all partitions at one snapshot yet (no
 * cross-partition transactions), so the grand total is checked as the sum of the final
 * per-partition totals.
 *
 * <p>Thread-safety: {@link #open}, {@link #start}, {@link #stop} and {@link #finalTotals} from one
 * controlling thread; counters from any.
 */
final class BankWorkload {

    record Settings(int partitions, int accountsPerPartition, int transferThreads, int readerThreads, long seed) {
        Settings {
            if (partitions < 1 || partitions > TortureDatabases.PARTITIONS_MAX) {
                throw new IllegalArgumentException("partitions must be 1 to " + TortureDatabases.PARTITIONS_MAX);
            }
            if (accountsPerPartition < 2 || accountsPerPartition > BankProcedures.ACCOUNTS_PER_CALL_MAX) {
                throw new IllegalArgumentException("accountsPerPartition must be 2 to " + BankProcedures.ACCOUNTS_PER_CALL_MAX);
            }
            if (transferThreads < 0 || transferThreads > 64 || readerThreads < 0 || readerThreads > 64) {
                throw new IllegalArgumentException("0 to 64 transfer and reader threads");
            }
        }

        long partitionTotal() {
            return accountsPerPartition * INITIAL_BALANCE;
        }
    }

    static final long INITIAL_BALANCE = 1_000;
    static final long TRANSFER_AMOUNT_MAX = 50;
    static final int WRONG_TOTALS_KEPT_MAX = 100;
    static final long JOIN_TIMEOUT_MS = 90_000;

    private final ElasTrasClient client;
    private final Settings settings;
    private final AtomicLong transfersOk = new AtomicLong();
    private final AtomicLong transfersFail = new AtomicLong();
    private final AtomicLong transfersUnknown = new AtomicLong();
    private final AtomicLong totalsRead = new AtomicLong();
    private final AtomicLong readsFailed = new AtomicLong();
    /** The largest CTS of an acknowledged commit of any thread. */
    private final AtomicLong ctsMax = new AtomicLong();
    /** Totals that differed from the invariant: "partition p read total t (expected e)". Bounded. */
    private final List<String> wrongTotals = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong wrongTotalCount = new AtomicLong();
    private final Map<String, AtomicLong> failuresByName = new ConcurrentHashMap<>();
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stopping;

    private final CommitTimestamps commitTimestamps;

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

    private void runTransfers(String name, Random random, boolean procedure) {
        Session session = client.newSession();
        long transfers = 0;
        while (!stopping) {
            transfers++;
            int p = random.nextInt(settings.partitions());
            long from = TortureDatabases.key(p, random.nextInt(settings.accountsPerPartition()));
            long to = TortureDatabases.key(p, random.nextInt(settings.accountsPerPartition() - 1));
            if (to >= from) {
                to++;
            }
            long amount = 1 + random.nextInt((int) TRANSFER_AMOUNT_MAX);
            try {
                long writtenAtCts; // -1 if the transfer did not move money (a read-only commit)
                if (procedure) {
                    Object moved = session.call(TortureDatabases.BANK_DATABASE, "transfer", TortureDatabases.rootKey(p),
                            List.of(from, to, amount));
                    writtenAtCts = ((Number) moved).longValue() == 1 ? session.lastCommitCts() : -1;
                } else {
                    long f = from;
                    long t = to;
                    writtenAtCts = session.runInTransaction(TortureDatabases.BANK_DATABASE, TortureDatabases.rootKey(p), txn -> {
                        long fromBalance = balance(txn.get(TortureDatabases.BANK_TABLE, List.of(f)));
                        long toBalance = balance(txn.get(TortureDatabases.BANK_TABLE, List.of(t)));
                        if (fromBalance < amount) {
                            return -1L;
                        }
                        txn.put(TortureDatabases.BANK_TABLE, Map.of("ID", f, "BALANCE", fromBalance - amount));
                        txn.put(TortureDatabases.BANK_TABLE, Map.of("ID", t, "BALANCE", toBalance + amount));
                        return txn.commit();
                    });
                }
                transfersOk.incrementAndGet();
                if (writtenAtCts >= 0) {
                    commitTimestamps.record(writtenAtCts, name + " transfer " + transfers);
                }
                ctsMax.accumulateAndGet(session.lastCommitCts(), Math::max);
            } catch (RuntimeException e) {
                failuresByName.computeIfAbsent(ClientOutcome.name(e), k -> new AtomicLong()).incrementAndGet();
                switch (ClientOutcome.of(e)) {
                    case FAIL -> transfersFail.incrementAndGet();
                    default -> {
                        transfersUnknown.incrementAndGet();
                        session = client.newSession();
                    }
                }
            }
        }
    }

    private static long balance(java.util.Optional<Map<String, Object>> row) {
        return (Long) row.orElseThrow(() -> new IllegalStateException("an account is missing")).get("BALANCE");
    }

    private void runReader(Random random) {
        Session session = client.newSession();
        while (!stopping) {
            int p = random.nextInt(settings.partitions());
            try {
                List<?> result = (List<?>) session.call(TortureDatabases.BANK_DATABASE, "total", TortureDatabases.rootKey(p),
                        List.of(TortureDatabases.key(p, 0), TortureDatabases.key(p, settings.accountsPerPartition() - 1)));
                checkTotal(p, ((Number) result.get(0)).longValue(), ((Number) result.get(1)).longValue(), "reader");
                totalsRead.incrementAndGet();
            } catch (RuntimeException e) {
                readsFailed.incrementAndGet();
                failuresByName.computeIfAbsent("reader:" + ClientOutcome.name(e), k -> new AtomicLong()).incrementAndGet();
                session = client.newSession();
            }
        }
    }

    private void checkTotal(int partition, long total, long accounts, String who) {
        if (total != settings.partitionTotal() || accounts != settings.accountsPerPartition()) {
            wrongTotalCount.incrementAndGet();
            if (wrongTotals.size() < WRONG_TOTALS_KEPT_MAX) {
                wrongTotals.add(who + ": partition " + partition + " total " + total + " over " + accounts + " accounts (expected "
                        + settings.partitionTotal() + " over " + settings.accountsPerPartition() + ")");
            }
        }
    }

    /**
     * After {@link #stop}: each partition's total, read at a snapshot that includes every
     * acknowledged transfer (and checked against the invariant); partition -> total.
     */
    Map<Integer, Long> finalTotals(long timeoutMs) throws InterruptedException {
        Map<Integer, Long> totals = new TreeMap<>();
        long atLeast = ctsMax.get();
        for (int p = 0; p < settings.partitions(); p++) {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            long[] read = null;
            RuntimeException last = null;
            while (read == null && System.nanoTime() < deadline) {
                int partition = p;
                try {
                    read = client.newSession().runInTransaction(TortureDatabases.BANK_DATABASE, TortureDatabases.rootKey(p), txn -> {
                        if (txn.snapshotCts() < atLeast) {
                            return null;
                        }
                        List<Map<String, Object>> rows = txn.scan(TortureDatabases.BANK_TABLE, List.of(TortureDatabases.key(partition, 0)),
                                List.of(TortureDatabases.key(partition, settings.accountsPerPartition() - 1)),
                                BankProcedures.ACCOUNTS_PER_CALL_MAX);
                        long sum = 0;
                        for (Map<String, Object> row : rows) {
                            sum += (Long) row.get("BALANCE");
                        }
                        return new long[] {sum, rows.size()};
                    });
                } catch (RuntimeException e) {
                    last = e;
                }
                if (read == null) {
                    Thread.sleep(50);
                }
            }
            if (read == null) {
                throw new IllegalStateException("could not read the final total of bank partition " + p + " within " + timeoutMs
                        + " ms; last error: " + last, last);
            }
            checkTotal(p, read[0], read[1], "final read");
            totals.put(p, read[0]);
        }
        return totals;
    }

    long expectedPartitionTotal() {
        return settings.partitionTotal();
    }

    long transfersOk() {
        return transfersOk.get();
    }

    long transfersFail() {
        return transfersFail.get();
    }

    long transfersUnknown() {
        return transfersUnknown.get();
    }

    long totalsRead() {
        return totalsRead.get();
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

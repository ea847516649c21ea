package org.elastras.experiments.torture;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.ElasTrasClientConfig;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.experiments.history.AnomalyClass;
import org.elastras.experiments.history.CheckResult;
import org.elastras.experiments.history.History;
import org.elastras.experiments.history.HistoryChecker;
import org.elastras.experiments.history.HistoryJsonLines;
import org.elastras.experiments.history.HistoryRecorder;
import org.elastras.experiments.history.IsolationLevel;
import org.elastras.experiments.history.Outcome;
import org.elastras.experiments.history.Transaction;

/**
 * {@code elastras torture --minutes N --seed S [--otms 3]}: starts a {@link TortureCluster} (two
 * masters, N OTMs), runs the list-append and bank workloads through {@link ElasTrasClient} while a
 * seeded {@link FaultInjector} kills OTMs and the active master and pauses OTMs, then reads every
 * list back, and the whole bank in one transaction, and reports the history checker's verdict, the
 * bank totals and ledger check ({@link BankLedger}; half of the transfers cross partitions by
 * default), the acknowledged commits lost and the faults. Writes {@code torture-seed<S>.json} and the history
 * ({@code torture-seed<S>-history.jsonl}) under {@code --out}; exits 1 on any anomaly or lost
 * commit, 2 on bad arguments.
 */
public final class TortureRun {

    static final String USAGE = String.join("\n",
            "usage: elastras torture --minutes N --seed S [options]",
            "  --minutes N          how long to inject faults (decimal allowed; default 5)",
            "  --seconds N          the same in seconds (overrides --minutes)",
            "  --seed S             seed of the fault schedule and the workloads' choices (default 1)",
            "  --otms N             OTM processes kept running (default 3)",
            "  --partitions N       partitions of each database (default 4)",
            "  --list-threads N     list-append client threads (default 4)",
            "  --cross-partition-percent P  bank transfers drawn between two partitions, 0 to 100 (default 50)",
            "  --cross-partition-coordinator source|lower  the partition such a transfer begins on (default source)",
            "  --quiet-ms MIN,MAX   pause between faults (default 8000,15000)",
            "  --out DIR            results directory (default experiments/results/torture)",
            "  --work-dir DIR       cluster data and process logs (default: a new temporary directory)");

    /** The run's settings. Immutable. */
    record Options(double faultSeconds, long seed, int otms, int partitions, int listThreads, int transferThreads, int readerThreads,
            int crossPartitionPercent, CrossPartitionCoordinator coordinator, long quietMsMin, long quietMsMax, long pauseMs, int faultsMax, double settleSeconds, Path out,
            Path workDirectory) {
        Options {
            if (faultSeconds <= 0 || faultSeconds > 24 * 3600) {
                throw new IllegalArgumentException("the run must last more than 0 s and at most a day");
            }
            if (otms < 2 || otms > 16) {
                throw new IllegalArgumentException("--otms must be 2 to 16 (a killed OTM's partitions need a survivor), got " + otms);
            }
            java.util.Objects.requireNonNull(coordinator, "coordinator");
            if (crossPartitionPercent < 0 || crossPartitionPercent > 100 || (crossPartitionPercent > 0 && partitions < 2)) {
                throw new IllegalArgumentException("--cross-partition-percent must be 0 to 100, and 0 with one partition; got "
                        + crossPartitionPercent + " with " + partitions + " partitions");
            }
        }

        static Options defaults(Path out, Path workDirectory) {
            return new Options(300, 1, 3, 4, 4, 2, 1, 50, CrossPartitionCoordinator.SOURCE, 8_000, 15_000, 5_000, 10_000, 8, out,
                    workDirectory);
        }

        Options withRun(double faultSeconds, long seed) {
            return new Options(faultSeconds, seed, otms, partitions, listThreads, transferThreads, readerThreads,
                    crossPartitionPercent, coordinator, quietMsMin, quietMsMax,
                    pauseMs, faultsMax, settleSeconds, out, workDirectory);
        }

        Options withSettleSeconds(double seconds) {
            return new Options(faultSeconds, seed, otms, partitions, listThreads, transferThreads, readerThreads,
                    crossPartitionPercent, coordinator, quietMsMin, quietMsMax,
                    pauseMs, faultsMax, seconds, out, workDirectory);
        }

        Options withCrossPartition(int percent, CrossPartitionCoordinator by) {
            return new Options(faultSeconds, seed, otms, partitions, listThreads, transferThreads, readerThreads, percent, by,
                    quietMsMin, quietMsMax, pauseMs, faultsMax, settleSeconds, out, workDirectory);
        }

        /** Faults {@code faults} times, {@code quietMsMin..quietMsMax} apart, however long that takes. */
        Options withFaults(int faults, long quietMsMin, long quietMsMax) {
            return new Options(faultSeconds, seed, otms, partitions, listThreads, transferThreads, readerThreads,
                    crossPartitionPercent, coordinator, quietMsMin, quietMsMax,
                    pauseMs, faults, settleSeconds, out, workDirectory);
        }
    }

    static final int MASTERS = 2;
    static final int KEYS_ACTIVE_PER_PARTITION = 4;
    static final int APPENDS_PER_KEY_MAX = 40;
    static final int ACCOUNTS_PER_PARTITION = 20;
    static final int HISTORY_TRANSACTIONS_MAX = 2_000_000;
    static final long FINAL_READ_TIMEOUT_MS = 60_000;
    /** Longer: the bank's final read needs every bank partition serving at once. */
    static final long BANK_FINAL_READ_TIMEOUT_MS = 180_000;
    static final int EXAMPLES_MAX = 20;

    private TortureRun() {
    }

    /**
     * Waits (bounded) until the client's catalog reads show a database the master just created: a
     * read of ROOT at its owner's snapshot can trail the create's commit by a moment, and then
     * answers UNKNOWN_DATABASE (seen once at set-up).
     */
    static void awaitInCatalog(ElasTrasClient client, String database) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                client.locate(database, TortureDatabases.rootKey(0));
                return;
            } catch (org.elastras.client.protocol.ElasTrasException e) {
                if (e.code() != org.elastras.client.protocol.ErrorCode.UNKNOWN_DATABASE || System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(50);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("elastras torture: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        TortureResult result = run(options);
        System.out.print(result.render());
        System.exit(result.passed() ? 0 : 1);
    }

    static Options parse(String[] args) throws IOException {
        Options o = Options.defaults(Path.of("experiments", "results", "torture"), null);
        double seconds = o.faultSeconds();
        long seed = o.seed();
        int otms = o.otms();
        int partitions = o.partitions();
        int listThreads = o.listThreads();
        int crossPercent = o.crossPartitionPercent();
        CrossPartitionCoordinator coordinator = o.coordinator();
        long quietMin = o.quietMsMin();
        long quietMax = o.quietMsMax();
        Path out = o.out();
        Path work = null;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value after " + flag);
            }
            String value = args[++i];
            try {
                switch (flag) {
                    case "--minutes" -> seconds = Double.parseDouble(value) * 60;
                    case "--seconds" -> seconds = Double.parseDouble(value);
                    case "--seed" -> seed = Long.parseLong(value);
                    case "--otms" -> otms = Integer.parseInt(value);
                    case "--partitions" -> partitions = Integer.parseInt(value);
                    case "--list-threads" -> listThreads = Integer.parseInt(value);
                    case "--cross-partition-percent" -> crossPercent = Integer.parseInt(value);
                    case "--cross-partition-coordinator" -> coordinator = CrossPartitionCoordinator.parse(value);
                    case "--quiet-ms" -> {
                        String[] range = value.split(",");
                        quietMin = Long.parseLong(range[0]);
                        quietMax = Long.parseLong(range[range.length - 1]);
                    }
                    case "--out" -> out = Path.of(value);
                    case "--work-dir" -> work = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown argument '" + flag + "'");
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a number, got '" + value + "'");
            }
        }
        if (work == null) {
            work = Files.createTempDirectory("elastras-torture-");
        }
        return new Options(seconds, seed, otms, partitions, listThreads, o.transferThreads(), o.readerThreads(), crossPercent,
                coordinator, quietMin, quietMax,
                o.pauseMs(), o.faultsMax(), o.settleSeconds(), out, work);
    }

    /** Runs a whole torture: cluster, workloads, faults, final reads, checks; writes the results. */
    static TortureResult run(Options options) throws Exception {
        Files.createDirectories(options.out());
        List<String> harnessErrors = Collections.synchronizedList(new ArrayList<>());
        HistoryRecorder recorder = new HistoryRecorder(IsolationLevel.SERIALIZABLE, HISTORY_TRANSACTIONS_MAX, System::nanoTime);
        System.out.printf("torture: seed %d, %d OTMs, %d masters, faults for %.0f s, %d%% of bank transfers across partitions"
                + " (coordinated by the %s partition); data and logs in %s%n", options.seed(), options.otms(), MASTERS,
                options.faultSeconds(), options.crossPartitionPercent(), options.coordinator().name().toLowerCase(java.util.Locale.ROOT),
                options.workDirectory());
        try (TortureCluster cluster = TortureCluster.start(options.workDirectory(), options.otms(), MASTERS);
                ElasTrasClient client = ElasTrasClient.connect(cluster.zkConnect(), clientConfig(options.seed()))) {
            client.admin().createDatabase(TortureDatabases.listSchema(), TortureDatabases.boundaries(options.partitions()));
            client.admin().createDatabase(TortureDatabases.bankSchema(), TortureDatabases.boundaries(options.partitions()));
            awaitInCatalog(client, TortureDatabases.LIST_DATABASE);
            awaitInCatalog(client, TortureDatabases.BANK_DATABASE);
            CommitTimestamps commitTimestamps = new CommitTimestamps();
            ListAppendWorkload lists = new ListAppendWorkload(client, recorder, commitTimestamps, new ListAppendWorkload.Settings(options.partitions(),
                    options.listThreads(), KEYS_ACTIVE_PER_PARTITION, APPENDS_PER_KEY_MAX, options.seed()));
            BankWorkload bank = new BankWorkload(client, commitTimestamps, new BankWorkload.Settings(options.partitions(), ACCOUNTS_PER_PARTITION,
                    options.transferThreads(), options.readerThreads(), options.crossPartitionPercent(), options.coordinator(), options.seed()));
            bank.open();
            FaultInjector faults = new FaultInjector(cluster, client, new FaultInjector.Settings(options.quietMsMin(),
                    options.quietMsMax(), options.pauseMs(), 2_000, options.faultsMax(), options.seed()));

            long workloadStart = System.nanoTime();
            lists.start();
            bank.start();
            Thread injector = new Thread(() -> {
                try {
                    faults.run();
                } catch (Exception | Error e) {
                    harnessErrors.add("fault injector: " + e);
                    e.printStackTrace();
                }
            }, "fault-injector");
            injector.setDaemon(true);
            injector.start();
            injector.join((long) (options.faultSeconds() * 1000));
            faults.stop();
            injector.join(); // Finishes the fault under way, with its repair.
            System.out.printf("torture: %d faults injected; workloads run %.0f s more%n", faults.events().size(), options.settleSeconds());
            Thread.sleep((long) (options.settleSeconds() * 1000));
            lists.stop();
            bank.stop();
            long workloadEnd = System.nanoTime();

            long ctsMax = 0;
            for (Transaction t : recorder.history().transactions()) {
                if (t.outcome() == Outcome.OK && t.commitTimestamp() != null) {
                    ctsMax = Math.max(ctsMax, t.commitTimestamp());
                }
            }
            Map<String, List<Long>> finalLists;
            boolean listsRead;
            try {
                finalLists = lists.finalRead(ctsMax, FINAL_READ_TIMEOUT_MS);
                listsRead = true;
            } catch (IllegalStateException e) {
                // Report the rest (the checker's verdict on the history without final reads); the run fails.
                harnessErrors.add("list final read: " + e.getMessage() + "; lost and partly visible appends not checked");
                finalLists = Map.of();
                listsRead = false;
            }
            BankLedger.FinalState bankState;
            BankLedger.Verdict ledger;
            try {
                bankState = bank.finalState(BANK_FINAL_READ_TIMEOUT_MS);
                ledger = BankLedger.check(bank.transfers(), bankState, bank.accounts(), BankWorkload.INITIAL_BALANCE);
            } catch (IllegalStateException e) {
                // Report the rest (the history checker's verdict) rather than nothing; the run fails.
                harnessErrors.add("bank final read: " + e.getMessage());
                bankState = new BankLedger.FinalState(Map.of(), Map.of());
                ledger = BankLedger.Verdict.notChecked(bank.transfers().size(), e.getMessage());
            }
            if (bank.transfersTruncated()) {
                harnessErrors.add("bank transfers stopped early: " + BankWorkload.TRANSFERS_RECORDED_MAX + " recorded for the ledger check");
            }
            Map<Integer, Long> finalTotals = new TreeMap<>();
            bankState.balances().forEach((account, balance) -> finalTotals.merge(TortureDatabases.partitionOf(account), balance, Long::sum));
            List<ZombieProbe.Attempt> zombieAttempts = faults.zombieAttempts();
            List<String> zombieAnswers = new ArrayList<>();
            long zombieViolations = 0;
            Set<String> unreadable = new TreeSet<>(); // database/partition whose probe keys could not be read
            for (ZombieProbe.Attempt attempt : zombieAttempts) {
                String partition = attempt.database() + "/" + attempt.partitionId();
                Boolean visible = null;
                if (!unreadable.contains(partition)) {
                    try {
                        visible = visible(client, attempt, ctsMax);
                    } catch (IllegalStateException e) {
                        unreadable.add(partition);
                        harnessErrors.add("zombie probes of " + partition + " not checked: " + e.getMessage());
                    }
                }
                boolean violation = attempt.acknowledged() || (visible != null && visible && !attempt.unknown());
                zombieViolations += violation ? 1 : 0;
                zombieAnswers.add(attempt.otm() + " " + partition + ": " + attempt.answer()
                        + (visible == null ? ", NOT READ" : visible ? ", VISIBLE" : ", not visible") + (violation ? " (VIOLATION)" : ""));
            }
            History history = recorder.history();
            CheckResult check = new HistoryChecker().check(history);
            List<LostCommits.LostAppend> lost = listsRead ? LostCommits.find(history, finalLists) : List.of();
            List<LostCommits.PartialCommit> partial = listsRead ? LostCommits.partial(history, finalLists) : List.of();

            Path historyFile = options.out().resolve("torture-seed" + options.seed() + "-history.jsonl");
            HistoryJsonLines.write(history, historyFile);
            List<FaultEvent> events = faults.events();
            Map<String, Long> faultsByKind = new LinkedHashMap<>();
            for (FaultKind kind : FaultKind.values()) {
                faultsByKind.put(kind.name(), events.stream().filter(e -> e.kind() == kind).count());
            }
            Map<String, Integer> anomaliesByClass = new TreeMap<>();
            check.counts().forEach((type, count) -> anomaliesByClass.put(type.name(), count));
            long forbidden = 0;
            for (AnomalyClass type : check.forbiddenFound()) {
                forbidden += check.counts().get(type);
            }
            long grandTotal = ledger.grandTotal();
            TortureResult result = new TortureResult(options.seed(), options.otms(), options.partitions(),
                    (workloadEnd - workloadStart) / 1e9, lists.ok(), lists.fail(), lists.unknown(), latencyMs(history), lists.failuresByName(),
                    check.valid() ? "VALID" : "INVALID", check.isolation().name(), anomaliesByClass, forbidden, check.render(),
                    lost.size(), lost.stream().limit(EXAMPLES_MAX).map(Object::toString).toList(), partial.size(),
                    partial.stream().limit(EXAMPLES_MAX).map(Object::toString).toList(), LostCommits.unknownButCommitted(history, finalLists),
                    finalLists.size(), bank.transfersOk(),
                    bank.transfersFail(), bank.transfersUnknown(), options.crossPartitionPercent(),
                    options.coordinator().name(), bank.crossPartitionTransfers(),
                    bank.partitionTotalsRead(), bank.grandTotalsRead(), bank.failuresByName(), bank.settings().partitionTotal(),
                    finalTotals, bank.settings().grandTotal(), grandTotal, bank.wrongTotalCount(),
                    bank.wrongTotals(), ledger, events, faultsByKind, commitsAfterEachFault(history, events, workloadEnd),
                    commitTimestamps.recorded(), commitTimestamps.duplicateCount(), commitTimestamps.duplicates(),
                    zombieAttempts.size(), zombieViolations, zombieAnswers, faults.unplannedExits(), List.copyOf(harnessErrors),
                    historyFile.toString(), cluster.logDirectory().toString());
            writeJson(result, options.out().resolve("torture-seed" + options.seed() + ".json"));
            return result;
        }
    }

    /** Whether a zombie's probe write is in the database, read at a snapshot at or after {@code ctsAtLeast}. */
    private static boolean visible(ElasTrasClient client, ZombieProbe.Attempt attempt, long ctsAtLeast) throws InterruptedException {
        String table = attempt.database().equals(TortureDatabases.LIST_DATABASE) ? TortureDatabases.LIST_TABLE
                : TortureDatabases.BANK_TABLE;
        int partition = TortureDatabases.partitionOf(attempt.key());
        long deadline = System.nanoTime() + FINAL_READ_TIMEOUT_MS * 1_000_000;
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                Boolean found = client.newSession().runInTransaction(attempt.database(), TortureDatabases.rootKey(partition),
                        txn -> txn.snapshotCts() < ctsAtLeast ? null : txn.get(table, List.of(attempt.key())).isPresent());
                if (found != null) {
                    return found;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("could not read zombie probe key " + attempt.key() + " of " + attempt.database() + ": " + last, last);
    }

    /**
     * For each fault: the list-append transactions that began after the fault was repaired and
     * were acknowledged before the next fault began (or the workloads stopped).
     */
    static List<Long> commitsAfterEachFault(History history, List<FaultEvent> events, long workloadEndNanos) {
        List<Long> counts = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            long from = events.get(i).endNanos();
            long to = i + 1 < events.size() ? events.get(i + 1).startNanos() : workloadEndNanos;
            counts.add(history.transactions().stream().filter(t -> t.outcome() == Outcome.OK && t.invokeNanos() >= from
                    && t.completeNanos() <= to && t.process() < ListAppendWorkload.FINAL_READ_PROCESS_BASE).count());
        }
        return counts;
    }

    /** p50, p99 and max latency of the workers' acknowledged list-append transactions, in ms. */
    static List<Long> latencyMs(History history) {
        long[] ms = history.transactions().stream()
                .filter(t -> t.outcome() == Outcome.OK && t.process() < ListAppendWorkload.FINAL_READ_PROCESS_BASE)
                .mapToLong(t -> (t.completeNanos() - t.invokeNanos()) / 1_000_000).sorted().toArray();
        if (ms.length == 0) {
            return List.of();
        }
        return List.of(ms[ms.length / 2], ms[(int) Math.min(ms.length - 1, ms.length * 99L / 100)], ms[ms.length - 1]);
    }

    /** Clients retry for 40 s: longer than a master failover plus an OTM failover back to back. */
    private static ElasTrasClientConfig clientConfig(long seed) {
        ElasTrasClientConfig d = ElasTrasClientConfig.defaults();
        return new ElasTrasClientConfig(ZkPaths.DEFAULT_ROOT, d.zkSessionTimeoutMs(), d.zkConnectTimeoutMs(), d.connectTimeoutMs(),
                d.requestTimeoutMs(), 40_000, d.attemptsMax(), d.backoffMinMs(), d.backoffMaxMs(), d.cachedLocationsMax(),
                d.otmConnectionsMax(), seed);
    }

    private static void writeJson(TortureResult result, Path file) throws IOException {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("passed", result.passed());
        json.put("anomalies", result.anomalies());
        json.put("lostCommits", result.lostCommitsAll());
        json.put("faultsInjected", result.faultsInjected());
        json.put("result", result);
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }
}

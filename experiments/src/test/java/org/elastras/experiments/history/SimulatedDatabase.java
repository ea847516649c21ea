package org.elastras.experiments.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A deterministic, single-threaded multi-version database for testing the checker: clients
 * (processes) run random list-append and register transactions, interleaved step by step from a
 * seed, against MVCC storage with snapshot reads, first-updater-wins and (optionally) read-set
 * validation, and every transaction is recorded with a {@link HistoryRecorder} on a logical clock.
 * A {@link Fault} breaks one rule on purpose, so tests can check the checker sees it. Not
 * thread-safe; one run per instance.
 */
final class SimulatedDatabase {

    /** How transactions are executed. */
    enum Mode {
        /** One transaction at a time, start to finish: serializable and strictly serial. */
        SERIAL,
        /** Interleaved, snapshot isolation with first-updater-wins. */
        SNAPSHOT,
        /** Interleaved, snapshot isolation plus read-set validation at commit: serializable. */
        SERIALIZABLE
    }

    /** The one rule a run breaks, if any. */
    enum Fault {
        NONE,
        /** Writes never conflict and reads are not validated: lost updates. */
        NO_FIRST_UPDATER_WINS,
        /** Once, a process reads a key it appended to at a snapshot from before its own commit. */
        STALE_SESSION_SNAPSHOT,
        /** Once, a transaction reported as aborted has its appends applied anyway. */
        ABORTED_WRITES_APPLIED,
        /**
         * Once, a reader of two keys that one transaction W appended to reads the first at its
         * snapshot and the second at a stale one from just before W (read skew), while reporting
         * its real snapshot.
         */
        READ_SKEW
    }

    record Config(long seed, int transactions, int processes, Mode mode, Fault fault, IsolationLevel claimed, int listKeys, int registerKeys,
            int appendsPerKeyMax) {

        static Config of(long seed, int transactions, Mode mode, Fault fault, IsolationLevel claimed) {
            return new Config(seed, transactions, 5, mode, fault, claimed, 4, 2, 40);
        }
    }

    /**
     * A run's history; if the fault struck, the id of the transaction it struck (else -1) and, for
     * READ_SKEW, the writer whose effects it half missed (else -1).
     */
    record Run(History history, long faultTransactionId, long faultWriterId) {
    }

    /** A committed transaction that appended to two list keys. */
    private record MultiKeyWriter(long id, long cts, String firstKey, String secondKey) {
    }

    private enum Kind { APPEND, READ_LIST, WRITE, READ_REGISTER }

    private record Planned(Kind kind, String key, long value) {
    }

    private record Version(long cts, long value) {
    }

    /** One transaction in flight on a process. */
    private final class Active {
        final int process;
        final long id;
        final List<Planned> plan;
        final long snapshot;
        final List<MicroOp> executed = new ArrayList<>();
        final Map<String, List<Long>> appends = new HashMap<>();
        final Map<String, Long> registerWrites = new HashMap<>();
        final Set<String> readKeys = new HashSet<>();
        final Set<String> intents = new HashSet<>();
        /** READ_SKEW: the key read at {@link #staleSnapshot} instead of {@link #snapshot}, or null. */
        String staleKey;
        long staleSnapshot;
        int next;

        Active(int process, long id, List<Planned> plan, long snapshot) {
            this.process = process;
            this.id = id;
            this.plan = plan;
            this.snapshot = snapshot;
        }
    }

    private final Config config;
    private final SplittableRandom random;
    private final HistoryRecorder recorder;
    private long nowNanos;
    private long lastCts;
    private long nextValue = 1;
    private int nextKeyGeneration;
    private final Map<String, List<Version>> versions = new HashMap<>();
    private final Map<String, Integer> intentHolder = new HashMap<>();
    private final String[] listKeyPool;
    private final Map<String, Integer> appendsPlanned = new HashMap<>();
    private final Active[] active;
    /** Per process: the list key its last committed transaction appended to, and the snapshot before that commit. */
    private final String[] lastAppendKey;
    private final long[] snapshotBeforeLastAppend;
    private long faultTransactionId = -1;
    private long faultWriterId = -1;
    private MultiKeyWriter lastMultiKeyWriter;
    private int startedCount;

    SimulatedDatabase(Config config) {
        this.config = config;
        this.random = new SplittableRandom(config.seed());
        this.recorder = new HistoryRecorder(config.claimed(), config.transactions(), () -> nowNanos);
        this.listKeyPool = new String[config.listKeys()];
        for (int i = 0; i < listKeyPool.length; i++) {
            listKeyPool[i] = "x" + nextKeyGeneration++;
        }
        this.active = new Active[config.processes()];
        this.lastAppendKey = new String[config.processes()];
        this.snapshotBeforeLastAppend = new long[config.processes()];
    }

    static Run run(Config config) {
        return new SimulatedDatabase(config).run();
    }

    private Run run() {
        int started = 0;
        int running = 0;
        while (started < config.transactions() || running > 0) {
            nowNanos++;
            int process = random.nextInt(config.processes());
            if (active[process] == null) {
                if (started == config.transactions()) {
                    continue;
                }
                begin(process);
                started++;
                running++;
                if (config.mode() == Mode.SERIAL) {
                    while (active[process] != null) {
                        nowNanos++;
                        step(process);
                    }
                    running--;
                }
                continue;
            }
            step(process);
            if (active[process] == null) {
                running--;
            }
        }
        return new Run(recorder.history(), faultTransactionId, faultWriterId);
    }

    private void begin(int process) {
        long snapshot = lastCts;
        List<Planned> plan;
        MultiKeyWriter skewed = config.fault() == Fault.READ_SKEW && faultTransactionId < 0 && startedCount > config.transactions() / 3
                && lastMultiKeyWriter != null && java.util.Arrays.asList(listKeyPool).contains(lastMultiKeyWriter.secondKey())
                ? lastMultiKeyWriter : null;
        boolean stale = config.fault() == Fault.STALE_SESSION_SNAPSHOT && faultTransactionId < 0 && lastAppendKey[process] != null
                && startedCount > config.transactions() / 3;
        startedCount++;
        if (stale) {
            plan = List.of(new Planned(Kind.READ_LIST, lastAppendKey[process], 0));
            snapshot = snapshotBeforeLastAppend[process];
        } else if (skewed != null) {
            plan = List.of(new Planned(Kind.READ_LIST, skewed.firstKey(), 0), new Planned(Kind.READ_LIST, skewed.secondKey(), 0));
        } else {
            plan = plan();
        }
        List<MicroOp> invoked = new ArrayList<>();
        for (Planned op : plan) {
            invoked.add(switch (op.kind()) {
                case APPEND -> new MicroOp.Append(op.key(), op.value());
                case READ_LIST -> MicroOp.ReadList.unobserved(op.key());
                case WRITE -> new MicroOp.Write(op.key(), op.value());
                case READ_REGISTER -> MicroOp.ReadRegister.unobserved(op.key());
            });
        }
        long id = recorder.invoke(process, invoked);
        active[process] = new Active(process, id, plan, snapshot);
        if (stale) {
            faultTransactionId = id;
        }
        if (skewed != null) {
            faultTransactionId = id;
            faultWriterId = skewed.id();
            active[process].staleKey = skewed.secondKey();
            active[process].staleSnapshot = skewed.cts() - 1;
        }
    }

    private List<Planned> plan() {
        int count = 1 + random.nextInt(4);
        List<Planned> plan = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            boolean register = config.registerKeys() > 0 && random.nextInt(10) < 3;
            int choice = random.nextInt(3); // 0 read, 1 write, 2 read then write
            if (register) {
                String key = "r" + random.nextInt(config.registerKeys());
                if (choice != 1) {
                    plan.add(new Planned(Kind.READ_REGISTER, key, 0));
                }
                if (choice != 0) {
                    plan.add(new Planned(Kind.WRITE, key, nextValue++));
                }
            } else {
                int slot = random.nextInt(listKeyPool.length);
                String key = listKeyPool[slot];
                if (choice != 1) {
                    plan.add(new Planned(Kind.READ_LIST, key, 0));
                }
                if (choice != 0) {
                    plan.add(new Planned(Kind.APPEND, key, nextValue++));
                    if (appendsPlanned.merge(key, 1, Integer::sum) >= config.appendsPerKeyMax()) {
                        listKeyPool[slot] = "x" + nextKeyGeneration++;
                    }
                }
            }
        }
        return plan;
    }

    private void step(int process) {
        Active txn = active[process];
        if (txn.next == txn.plan.size()) {
            commit(txn);
            return;
        }
        Planned op = txn.plan.get(txn.next++);
        switch (op.kind()) {
            case READ_LIST -> {
                List<Long> seen = new ArrayList<>();
                long snapshot = op.key().equals(txn.staleKey) ? txn.staleSnapshot : txn.snapshot;
                for (Version version : versions.getOrDefault(op.key(), List.of())) {
                    if (version.cts() <= snapshot) {
                        seen.add(version.value());
                    }
                }
                seen.addAll(txn.appends.getOrDefault(op.key(), List.of()));
                txn.executed.add(new MicroOp.ReadList(op.key(), seen));
                txn.readKeys.add(op.key());
            }
            case READ_REGISTER -> {
                Long seen = txn.registerWrites.get(op.key());
                if (seen == null) {
                    List<Version> history = versions.getOrDefault(op.key(), List.of());
                    for (int i = history.size() - 1; i >= 0 && seen == null; i--) {
                        if (history.get(i).cts() <= txn.snapshot) {
                            seen = history.get(i).value();
                        }
                    }
                }
                txn.executed.add(MicroOp.ReadRegister.of(op.key(), seen));
                txn.readKeys.add(op.key());
            }
            case APPEND, WRITE -> {
                MicroOp write = op.kind() == Kind.APPEND ? new MicroOp.Append(op.key(), op.value()) : new MicroOp.Write(op.key(), op.value());
                txn.executed.add(write);
                if (config.fault() != Fault.NO_FIRST_UPDATER_WINS && conflicts(txn, op.key())) {
                    finish(txn, Outcome.FAIL, null);
                    return;
                }
                intentHolder.put(op.key(), process);
                txn.intents.add(op.key());
                if (op.kind() == Kind.APPEND) {
                    txn.appends.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op.value());
                } else {
                    txn.registerWrites.put(op.key(), op.value());
                }
            }
        }
    }

    /** First updater wins: another transaction's intent, or a version committed after our snapshot. */
    private boolean conflicts(Active txn, String key) {
        Integer holder = intentHolder.get(key);
        return holder != null && holder != txn.process || newestCts(key) > txn.snapshot;
    }

    private long newestCts(String key) {
        List<Version> list = versions.get(key);
        return list == null || list.isEmpty() ? -1 : list.get(list.size() - 1).cts();
    }

    private void commit(Active txn) {
        // The stale-snapshot and read-skew faults' transaction always commits, so that its reads are in the history.
        boolean faulty = txn.id == faultTransactionId && (config.fault() == Fault.STALE_SESSION_SNAPSHOT || config.fault() == Fault.READ_SKEW);
        int roll = faulty ? 99 : random.nextInt(100);
        boolean writes = !txn.appends.isEmpty() || !txn.registerWrites.isEmpty();
        if (roll < 3) {
            if (config.fault() == Fault.ABORTED_WRITES_APPLIED && faultTransactionId < 0 && !txn.appends.isEmpty()) {
                install(txn);
                faultTransactionId = txn.id;
            }
            finish(txn, Outcome.FAIL, null);
            return;
        }
        if (roll < 6) {
            finish(txn, Outcome.UNKNOWN, null); // lost before commit: never applied
            return;
        }
        if (config.mode() == Mode.SERIALIZABLE && config.fault() != Fault.NO_FIRST_UPDATER_WINS) {
            for (String key : txn.readKeys) {
                if (newestCts(key) > txn.snapshot) {
                    finish(txn, Outcome.FAIL, null);
                    return;
                }
            }
        }
        if (!writes) {
            finish(txn, Outcome.OK, null);
            return;
        }
        long cts = install(txn);
        if (!txn.appends.isEmpty()) {
            lastAppendKey[txn.process] = txn.appends.keySet().iterator().next();
            snapshotBeforeLastAppend[txn.process] = cts - 1;
        }
        if (roll >= 10 && txn.appends.size() >= 2) {
            java.util.Iterator<String> keys = txn.appends.keySet().iterator();
            lastMultiKeyWriter = new MultiKeyWriter(txn.id, cts, keys.next(), keys.next());
        }
        // An acknowledgement lost after the commit: the client cannot tell.
        finish(txn, roll < 10 ? Outcome.UNKNOWN : Outcome.OK, cts);
    }

    private long install(Active txn) {
        long cts = ++lastCts;
        for (Map.Entry<String, List<Long>> entry : txn.appends.entrySet()) {
            for (long value : entry.getValue()) {
                versions.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).add(new Version(cts, value));
            }
        }
        for (Map.Entry<String, Long> entry : txn.registerWrites.entrySet()) {
            versions.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).add(new Version(cts, entry.getValue()));
        }
        return cts;
    }

    private void finish(Active txn, Outcome outcome, Long cts) {
        for (String key : txn.intents) {
            intentHolder.remove(key, txn.process);
        }
        List<MicroOp> ops = txn.executed.isEmpty() ? null : txn.executed;
        if (outcome == Outcome.OK) {
            recorder.complete(txn.id, outcome, ops, txn.snapshot, cts);
        } else {
            recorder.complete(txn.id, outcome, ops, null, null);
        }
        active[txn.process] = null;
    }
}

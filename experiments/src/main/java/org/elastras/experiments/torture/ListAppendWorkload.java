package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.Session;
import org.elastras.experiments.history.HistoryRecorder;
import org.elastras.experiments.history.MicroOp;
import org.elastras.experiments.history.Outcome;

/**
 * The list-append workload on database {@code TLIST}: worker threads run interactive
 * transactions ({@code runInTransaction}) of 1 to 4 micro-ops, each an append of a value unique in
 * the run or a read of a whole list, on keys of one partition, and record every transaction in a
 * {@link HistoryRecorder}: OK with what the reads returned, FAIL when the client says it did not
 * commit, UNKNOWN otherwise ({@link ClientOutcome}). Each worker is one process of the history
 * with its own {@link Session}; after an UNKNOWN outcome it continues as a new process with a new
 * session, since its session no longer knows what it committed.
 *
 * <p>Keys: each partition has a window of {@code keysActive} keys; a key takes at most
 * {@code appendsPerKeyMax} appends, then the window moves on to a fresh key, so that lists stay
 * short and new keys keep starting.
 *
 * <p>Thread-safety: {@link #start}, {@link #stop} and {@link #finalRead} from one controlling
 * thread; the counters may be read from any thread.
 */
final class ListAppendWorkload {

    /** Settings. {@code seed} decides every worker's choices (not the interleaving). */
    record Settings(int partitions, int threads, int keysActive, int appendsPerKeyMax, long seed) {
        Settings {
            if (partitions < 1 || partitions > TortureDatabases.PARTITIONS_MAX) {
                throw new IllegalArgumentException("partitions must be 1 to " + TortureDatabases.PARTITIONS_MAX);
            }
            if (threads < 1 || threads > 64) {
                throw new IllegalArgumentException("threads must be 1 to 64, got " + threads);
            }
            if (keysActive < 1 || keysActive > 64) {
                throw new IllegalArgumentException("keysActive must be 1 to 64, got " + keysActive);
            }
            // Values are up to 10 digits and a comma: the list must fit in its VARCHAR.
            if (appendsPerKeyMax < 1 || appendsPerKeyMax * 11 > TortureDatabases.LIST_CHARS_MAX) {
                throw new IllegalArgumentException("appendsPerKeyMax must be 1 to " + TortureDatabases.LIST_CHARS_MAX / 11);
            }
        }
    }

    static final int OPS_PER_TRANSACTION_MAX = 4;
    /** Most keys the final read of one partition reads in one transaction. */
    static final int FINAL_READ_KEYS_PER_TRANSACTION_MAX = 200;
    static final long JOIN_TIMEOUT_MS = 90_000;
    /** Process ids of the final reads start here, apart from the workers'. */
    static final int FINAL_READ_PROCESS_BASE = 1_000_000;

    private final ElasTrasClient client;
    private final HistoryRecorder recorder;
    private final Settings settings;
    private final AtomicLong nextValue = new AtomicLong(1);
    private final AtomicInteger nextProcess = new AtomicInteger();
    /** First key index of each partition's window of active keys. */
    private final AtomicLongArray windowStart;
    /** Appends attempted per key, to retire full keys. */
    private final Map<Long, AtomicInteger> appendsByKey = new ConcurrentHashMap<>();
    /** Every key a transaction touched, for the final read. */
    private final Set<Long> keysTouched = new ConcurrentSkipListSet<>();
    private final Map<String, AtomicLong> failuresByName = new ConcurrentHashMap<>();
    private final AtomicLong ok = new AtomicLong();
    private final AtomicLong fail = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopping;

    private final CommitTimestamps commitTimestamps;

    ListAppendWorkload(ElasTrasClient client, HistoryRecorder recorder, CommitTimestamps commitTimestamps, Settings settings) {
        this.client = Objects.requireNonNull(client, "client");
        this.commitTimestamps = Objects.requireNonNull(commitTimestamps, "commitTimestamps");
        this.recorder = Objects.requireNonNull(recorder, "recorder");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.windowStart = new AtomicLongArray(settings.partitions());
    }

    void start() {
        for (int w = 0; w < settings.threads(); w++) {
            Random random = new Random(settings.seed() * 1_000_003L + w);
            Thread worker = new Thread(() -> runWorker(random), "list-append-" + w);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
    }

    /** Tells the workers to stop after their current transaction and waits for them. */
    void stop() throws InterruptedException {
        stopping = true;
        for (Thread worker : workers) {
            worker.join(JOIN_TIMEOUT_MS);
            if (worker.isAlive()) {
                throw new IllegalStateException(worker.getName() + " did not finish its transaction within " + JOIN_TIMEOUT_MS + " ms");
            }
        }
    }

    long ok() {
        return ok.get();
    }

    long fail() {
        return fail.get();
    }

    long unknown() {
        return unknown.get();
    }

    Map<String, Long> failuresByName() {
        Map<String, Long> out = new TreeMap<>();
        failuresByName.forEach((name, count) -> out.put(name, count.get()));
        return out;
    }

    private void runWorker(Random random) {
        int process = nextProcess.getAndIncrement();
        Session session = client.newSession();
        while (!stopping) {
            int partition = random.nextInt(settings.partitions());
            List<MicroOp> invoked = plan(partition, random);
            long id = recorder.invoke(process, invoked);
            List<List<MicroOp>> lastAttempt = new ArrayList<>(List.of(invoked));
            try {
                Committed committed = session.runInTransaction(TortureDatabases.LIST_DATABASE, TortureDatabases.rootKey(partition),
                        txn -> {
                            List<MicroOp> done = new ArrayList<>(invoked.size());
                            lastAttempt.set(0, done);
                            for (MicroOp op : invoked) {
                                done.add(execute(txn, op));
                            }
                            long cts = txn.commit();
                            return new Committed(done, txn.snapshotCts(), cts);
                        });
                recorder.complete(id, Outcome.OK, committed.ops(), committed.snapshotCts(), committed.cts());
                ok.incrementAndGet();
                if (committed.ops().stream().anyMatch(MicroOp::isWrite)) {
                    commitTimestamps.record(committed.cts(), "list-append transaction " + id);
                }
            } catch (RuntimeException e) {
                Outcome outcome = ClientOutcome.of(e);
                failuresByName.computeIfAbsent(ClientOutcome.name(e), k -> new AtomicLong()).incrementAndGet();
                if (outcome == Outcome.UNKNOWN) {
                    // Every append was sent before the commit; reads not reached stay unobserved.
                    recorder.complete(id, Outcome.UNKNOWN, executedThenInvoked(invoked, lastAttempt.get(0)));
                    unknown.incrementAndGet();
                    process = nextProcess.getAndIncrement();
                    session = client.newSession();
                } else {
                    recorder.complete(id, Outcome.FAIL, executedThenInvoked(invoked, lastAttempt.get(0)));
                    fail.incrementAndGet();
                }
            }
        }
    }

    /** The ops as executed so far, and the rest as invoked, reads unobserved. */
    private static List<MicroOp> executedThenInvoked(List<MicroOp> invoked, List<MicroOp> done) {
        List<MicroOp> out = new ArrayList<>(invoked.size());
        for (int i = 0; i < invoked.size(); i++) {
            MicroOp op = i < done.size() ? done.get(i) : invoked.get(i);
            out.add(op);
        }
        return out;
    }

    private record Committed(List<MicroOp> ops, long snapshotCts, long cts) {
    }

    /** Chooses 1 to 4 ops on keys of {@code partition}: appends of fresh values and reads. */
    private List<MicroOp> plan(int partition, Random random) {
        int count = 1 + random.nextInt(OPS_PER_TRANSACTION_MAX);
        List<MicroOp> ops = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long key = chooseKey(partition, random);
            keysTouched.add(key);
            if (random.nextBoolean()) {
                appendsByKey.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
                ops.add(new MicroOp.Append(Long.toString(key), nextValue.getAndIncrement()));
            } else {
                ops.add(MicroOp.ReadList.unobserved(Long.toString(key)));
            }
        }
        return ops;
    }

    private long chooseKey(int partition, Random random) {
        while (true) {
            long start = windowStart.get(partition);
            long key = TortureDatabases.key(partition, start + random.nextInt(settings.keysActive()));
            AtomicInteger appends = appendsByKey.get(key);
            if (appends == null || appends.get() < settings.appendsPerKeyMax()) {
                return key;
            }
            windowStart.compareAndSet(partition, start, start + 1); // Retire the window's first key.
        }
    }

    private static MicroOp execute(ClientTransaction txn, MicroOp op) {
        long key = Long.parseLong(op.key());
        List<Long> current = read(txn, key);
        if (op instanceof MicroOp.Append append) {
            StringBuilder value = new StringBuilder();
            for (Long v : current) {
                value.append(v).append(',');
            }
            value.append(append.value());
            txn.put(TortureDatabases.LIST_TABLE, Map.of("K", key, "V", value.toString()));
            return op;
        }
        return new MicroOp.ReadList(op.key(), current);
    }

    private static List<Long> read(ClientTransaction txn, long key) {
        return txn.get(TortureDatabases.LIST_TABLE, List.of(key)).map(row -> parse((String) row.get("V"))).orElse(List.of());
    }

    static List<Long> parse(String list) {
        if (list == null || list.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(list.split(",")).map(Long::parseLong).toList();
    }

    /**
     * After {@link #stop}: reads every key touched, per partition, at a snapshot that includes
     * {@code ctsAtLeast} (the newest acknowledged commit), and records the reads as committed
     * transactions of processes of their own. Returns key -> the list read.
     *
     * @throws IllegalStateException if a partition cannot be read within {@code timeoutMs}
     */
    Map<String, List<Long>> finalRead(long ctsAtLeast, long timeoutMs) throws InterruptedException {
        Map<Integer, List<Long>> keysByPartition = new TreeMap<>();
        for (long key : new TreeSet<>(keysTouched)) {
            keysByPartition.computeIfAbsent(TortureDatabases.partitionOf(key), p -> new ArrayList<>()).add(key);
        }
        Map<String, List<Long>> lists = new TreeMap<>();
        int process = FINAL_READ_PROCESS_BASE;
        for (Map.Entry<Integer, List<Long>> entry : keysByPartition.entrySet()) {
            List<Long> keys = entry.getValue();
            for (int from = 0; from < keys.size(); from += FINAL_READ_KEYS_PER_TRANSACTION_MAX) {
                List<Long> chunk = keys.subList(from, Math.min(keys.size(), from + FINAL_READ_KEYS_PER_TRANSACTION_MAX));
                List<MicroOp> reads = chunk.stream().map(k -> (MicroOp) MicroOp.ReadList.unobserved(Long.toString(k))).toList();
                long id = recorder.invoke(process, reads);
                Committed read = readAtLeast(entry.getKey(), chunk, ctsAtLeast, timeoutMs);
                recorder.complete(id, Outcome.OK, read.ops(), read.snapshotCts(), read.cts());
                for (MicroOp op : read.ops()) {
                    lists.put(op.key(), ((MicroOp.ReadList) op).values());
                }
                process++;
            }
        }
        return lists;
    }

    private Committed readAtLeast(int partition, List<Long> keys, long ctsAtLeast, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                Committed read = client.newSession().runInTransaction(TortureDatabases.LIST_DATABASE,
                        TortureDatabases.rootKey(partition), txn -> {
                            if (txn.snapshotCts() < ctsAtLeast) {
                                return null; // Not there yet: read again (the session API cannot ask for it).
                            }
                            List<MicroOp> ops = new ArrayList<>(keys.size());
                            for (long key : keys) {
                                ops.add(new MicroOp.ReadList(Long.toString(key), read(txn, key)));
                            }
                            long cts = txn.commit();
                            return new Committed(ops, txn.snapshotCts(), cts);
                        });
                if (read != null) {
                    return read;
                }
            } catch (RuntimeException e) {
                last = e;
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("could not read partition " + partition + " of " + TortureDatabases.LIST_DATABASE
                + " at a snapshot >= " + ctsAtLeast + " within " + timeoutMs + " ms; last error: " + last, last);
    }
}

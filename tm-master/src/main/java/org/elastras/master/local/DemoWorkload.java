package org.elastras.master.local;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.elastras.client.ElasTrasClient;

/**
 * The demo workload of a local cluster: client threads, each at a bounded rate, doing one
 * read-modify-write transaction at a time (SERIALIZABLE: read a row, write it back incremented)
 * on a random row of the demo databases, through the routing client, which re-runs a transaction
 * after a conflict, a move or a failed OTM within its deadline. Any exception that reaches this
 * class is an error the application would have seen.
 *
 * <p>Start and stop from one thread; the counters may be read from any.
 */
final class DemoWorkload implements AutoCloseable {

    private static final long JOIN_TIMEOUT_MS = 40_000;

    /** Counters since start. Thread-safe. */
    static final class Counters {
        final LongAdder committed = new LongAdder();
        final LongAdder errors = new LongAdder();
        final AtomicReference<String> lastError = new AtomicReference<>();
        /** The slowest transaction, in microseconds, including the client's retries. */
        final AtomicReference<Long> slowestMicros = new AtomicReference<>(0L);
    }

    private final DemoData data;
    private final ElasTrasClient client;
    private final int threads;
    private final long intervalNanosPerThread;
    private final long seed;
    private final Counters counters = new Counters();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopping;

    DemoWorkload(DemoData data, ElasTrasClient client, int threads, int rateTxnPerSecond, long seed) {
        this.data = data;
        this.client = client;
        this.threads = threads;
        this.intervalNanosPerThread = TimeUnit.SECONDS.toNanos(1) * threads / rateTxnPerSecond;
        this.seed = seed;
    }

    void start() {
        for (int t = 0; t < threads; t++) {
            Random random = new Random(seed * 1_000 + t);
            Thread worker = new Thread(() -> run(random), "demo-client-" + t);
            worker.setDaemon(true);
            workers.add(worker);
            worker.start();
        }
    }

    Counters counters() {
        return counters;
    }

    private void run(Random random) {
        long next = System.nanoTime();
        while (!stopping) {
            long now = System.nanoTime();
            if (now < next) {
                try {
                    TimeUnit.NANOSECONDS.sleep(next - now); // at most one interval: stopping is seen soon
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            } else if (now - next > TimeUnit.SECONDS.toNanos(1)) {
                next = now; // Fell behind (a failover): do not burst to catch up.
            }
            next += intervalNanosPerThread;
            oneTransaction(random);
        }
    }

    private void oneTransaction(Random random) {
        Target target = pick(random);
        long started = System.nanoTime();
        try {
            client.runInTransaction(target.database(), target.rootKey(), txn -> {
                Map<String, Object> row = new HashMap<>(txn.get(target.table(), target.key())
                        .orElseThrow(() -> new IllegalStateException("demo row " + target + " is missing")));
                row.put(target.column(), incremented(row.get(target.column())));
                txn.put(target.table(), row);
                return null;
            });
            counters.committed.increment();
            long micros = (System.nanoTime() - started) / 1_000;
            counters.slowestMicros.accumulateAndGet(micros, Math::max);
        } catch (RuntimeException e) {
            if (!stopping) {
                counters.errors.increment();
                counters.lastError.set(target + ": " + e);
            }
        }
    }

    /** The value plus one, of the same type (BIGINT columns read as Long, INT columns as Integer). */
    private static Object incremented(Object value) {
        if (value instanceof Long l) {
            return l + 1;
        }
        if (value instanceof Integer i) {
            return i + 1;
        }
        throw new IllegalStateException("a demo counter column holds " + value + ", not a whole number");
    }

    private Target pick(Random random) {
        if (random.nextBoolean()) {
            long id = random.nextInt(data.tenantRows());
            return new Target(DemoData.TENANT, List.of(), "ACCOUNTS", List.of(id), "BALANCE");
        }
        int w = random.nextInt(data.warehouses());
        int i = random.nextInt(data.itemsPerWarehouse());
        return new Target(DemoData.SHOP, List.of(w), "STOCK", List.of(w, i), "QUANTITY");
    }

    /** One row a transaction reads and writes back, and the root key that routes it. */
    private record Target(String database, List<Object> rootKey, String table, List<Object> key, String column) {
    }

    /**
     * Stops the threads and waits for them. A thread finishes the transaction it is running first (a
     * transaction in its retries may take a while): interrupting it could leave a commit that
     * happened uncounted. Idempotent.
     */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        for (Thread worker : workers) {
            worker.join(JOIN_TIMEOUT_MS);
        }
        for (Thread worker : workers) {
            if (worker.isAlive()) {
                worker.interrupt(); // stuck past the join timeout: give up on it
            }
        }
    }
}

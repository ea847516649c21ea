package org.elastras.master.local;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PutRequest;

/**
 * The demo workload of a local cluster: client threads, each at a bounded rate, doing one
 * read-modify-write transaction at a time (SERIALIZABLE: read a row, write it back incremented)
 * on a random row of the demo databases, at the partition's current owner. A conflict is retried
 * at once; NOT_OWNER, a dead OTM or one not serving makes the thread ask for the owner again and
 * retry after a pause; both bounded by {@value #ATTEMPTS_MAX} attempts and
 * {@value #DEADLINE_MS} ms. Anything else, or running out of attempts, is an error.
 *
 * <p>Start and stop from one thread; the counters may be read from any.
 */
final class DemoWorkload implements AutoCloseable {

    private static final int ATTEMPTS_MAX = 100;
    private static final long DEADLINE_MS = 20_000;
    private static final long REROUTE_PAUSE_MS = 100;

    /** Counters since start. Thread-safe. */
    static final class Counters {
        final LongAdder committed = new LongAdder();
        final LongAdder conflicts = new LongAdder();
        final LongAdder reroutes = new LongAdder();
        final LongAdder errors = new LongAdder();
        final AtomicReference<String> lastError = new AtomicReference<>();
    }

    private final DemoData data;
    private final OwnerDirectory owners;
    private final int threads;
    private final long intervalNanosPerThread;
    private final long seed;
    private final Counters counters = new Counters();
    private final List<Thread> workers = new ArrayList<>();
    private volatile boolean stopping;

    DemoWorkload(DemoData data, OwnerDirectory owners, int threads, int rateTxnPerSecond, long seed) {
        this.data = data;
        this.owners = owners;
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
        long afterCts = 0;
        while (!stopping) {
            long now = System.nanoTime();
            if (now < next) {
                try {
                    TimeUnit.NANOSECONDS.sleep(next - now);
                } catch (InterruptedException e) {
                    return;
                }
            } else if (now - next > TimeUnit.SECONDS.toNanos(1)) {
                next = now; // Fell behind (a failover): do not burst to catch up.
            }
            next += intervalNanosPerThread;
            afterCts = Math.max(afterCts, oneTransaction(random, afterCts));
        }
    }

    /** Runs one transaction to its end; returns its commit timestamp, or 0 if it failed. */
    private long oneTransaction(Random random, long afterCts) {
        Target target = pick(random);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DEADLINE_MS);
        String lastFailure = "no attempt";
        for (int attempt = 1; attempt <= ATTEMPTS_MAX && System.nanoTime() < deadline && !stopping; attempt++) {
            try {
                OtmClient client = owners.clientFor(target.partitionId());
                if (client == null) {
                    lastFailure = "partition " + target.partitionId() + " has no serving owner";
                    counters.reroutes.increment();
                    Thread.sleep(REROUTE_PAUSE_MS);
                    continue;
                }
                long cts = readModifyWrite(client, target, afterCts);
                counters.committed.increment();
                return cts;
            } catch (ElasTrasException e) {
                lastFailure = e.code() + ": " + e.getMessage();
                if (e.code() == ErrorCode.CONFLICT || e.code() == ErrorCode.SERIALIZATION_FAILURE
                        || e.code() == ErrorCode.TRANSACTION_TIMEOUT) {
                    counters.conflicts.increment();
                } else if (e.code() == ErrorCode.NOT_OWNER || e.code() == ErrorCode.UNREACHABLE
                        || e.code() == ErrorCode.NOT_SERVING || e.code() == ErrorCode.OVERLOADED) {
                    counters.reroutes.increment();
                    owners.invalidate();
                    if (!pause()) {
                        break;
                    }
                } else {
                    break; // Not retryable (OUTCOME_UNKNOWN included: the commit may have happened).
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            } catch (Exception e) {
                lastFailure = e.toString();
                break;
            }
        }
        if (!stopping) {
            counters.errors.increment();
            counters.lastError.set(target + ": " + lastFailure);
        }
        return 0;
    }

    private static boolean pause() {
        try {
            Thread.sleep(REROUTE_PAUSE_MS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private long readModifyWrite(OtmClient client, Target target, long afterCts) {
        long txn = client.begin(new BeginRequest(target.database(), target.partitionId(), Isolation.SERIALIZABLE,
                afterCts)).txnId();
        GetResponse read = client.get(new GetRequest(txn, target.table(), target.key()));
        if (!read.found()) {
            throw new IllegalStateException("demo row " + target + " is missing");
        }
        Map<String, Object> row = new HashMap<>(read.row());
        row.put(target.column(), incremented(row.get(target.column())));
        client.put(new PutRequest(txn, target.table(), row));
        return client.commit(new CommitRequest(txn)).cts();
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
            return new Target(DemoData.TENANT, data.tenantPartitionId(), "ACCOUNTS", List.of(id), "BALANCE");
        }
        int w = random.nextInt(data.warehouses());
        int i = random.nextInt(data.itemsPerWarehouse());
        return new Target(DemoData.SHOP, data.shopPartitionOf(w), "STOCK", List.of(w, i), "QUANTITY");
    }

    /** One row a transaction reads and writes back. */
    private record Target(String database, long partitionId, String table, List<Object> key, String column) {
    }

    /** Stops the threads and waits for them. Idempotent. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        for (Thread worker : workers) {
            worker.interrupt();
        }
        for (Thread worker : workers) {
            worker.join(DEADLINE_MS);
        }
    }
}

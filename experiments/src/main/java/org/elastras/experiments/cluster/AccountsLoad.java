package org.elastras.experiments.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OutcomeUnknownException;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.PartitionState;

/**
 * The elasticity experiment's first load: database ELASTIC (one table of accounts, {@code
 * partitions} partitions), {@value #WORKERS} client threads sharing a schedule of transaction
 * start times at the offered rate (open loop: the offered load does not depend on latency), each
 * transaction incrementing a random account. At the end every account must hold exactly its
 * acknowledged increments (outcome-unknown ones aside).
 */
final class AccountsLoad implements ElasticLoad {

    private static final int ACCOUNTS_PER_PARTITION = 64;
    private static final int ACCOUNT_SPAN = 1_000;
    private static final int WORKERS = 24;

    private final ElasTrasClient client;
    private final int partitions;
    private final AtomicLong nextStart = new AtomicLong(System.nanoTime());
    private final AtomicLong commits = new AtomicLong();
    private final Recorder latency = new Recorder(3);
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Map<Integer, LongAdder> acknowledged = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> unknown = new ConcurrentHashMap<>();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final List<Thread> workers = new ArrayList<>();
    private volatile int rate;
    private Histogram histogram;
    private long commitsSeen;

    private AccountsLoad(ElasTrasClient client, int partitions, int rate) {
        this.client = client;
        this.partitions = partitions;
        this.rate = rate;
    }

    /** Creates ELASTIC through {@code master}, waits until it serves, and starts the clients at {@code rate}. */
    static AccountsLoad start(Master master, ElasTrasClient client, int partitions, int rate) throws Exception {
        List<List<Object>> boundaries = new ArrayList<>();
        for (int p = 1; p < partitions; p++) {
            boundaries.add(List.of(p * ACCOUNT_SPAN));
        }
        int before = master.partitions().size();
        master.createDatabase(DatabaseSchema.tree("ELASTIC")
                .root("ACCOUNT", t -> t.column("A_ID", ColumnType.INT).column("TOTAL", ColumnType.BIGINT).key("A_ID"))
                .build(), boundaries);
        ElasticityExperiment.await(() -> master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING)
                && master.partitions().size() == before + partitions, 120);
        AccountsLoad load = new AccountsLoad(client, partitions, rate);
        for (int i = 0; i < WORKERS; i++) {
            int index = i;
            Thread w = new Thread(() -> load.work(index), "client-" + i);
            w.setDaemon(true);
            w.start();
            load.workers.add(w);
        }
        return load;
    }

    @Override
    public void offer(int txnPerSecond) {
        rate = txnPerSecond;
    }

    @Override
    public Interval interval() {
        histogram = latency.getIntervalHistogram(histogram);
        long c = commits.get();
        long delta = c - commitsSeen;
        commitsSeen = c;
        return new Interval(delta, histogram.getValueAtPercentile(50) / 1_000.0, histogram.getValueAtPercentile(99) / 1_000.0,
                histogram.getMaxValue() / 1_000.0);
    }

    @Override
    public Map<String, Object> finish() throws Exception {
        stop.set(true);
        for (Thread w : workers) {
            w.join(30_000);
        }
        long[] checked = check();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", "accounts");
        out.put("client_visible_failures", errors.size());
        out.put("first_failures", errors.subList(0, Math.min(5, errors.size())).toString());
        out.put("acknowledged", checked[0]);
        out.put("outcome_unknown", checked[1]);
        return out;
    }

    @Override
    public void close() {
        stop.set(true);
    }

    /**
     * One client thread: takes the next start time of the shared schedule ({@code rate} per
     * second), waits for it and runs one transaction incrementing a random account. A schedule that
     * fell more than a second behind skips ahead instead of bursting.
     */
    private void work(int index) {
        Random random = new Random(index);
        while (!stop.get()) {
            long interval = 1_000_000_000L / Math.max(1, rate);
            long now = System.nanoTime();
            long slot = nextStart.getAndUpdate(n -> Math.max(n, now - 1_000_000_000L) + interval);
            slot = Math.max(slot, now - 1_000_000_000L);
            long waitNanos = slot - now;
            if (waitNanos > 0) {
                sleep(waitNanos / 1_000_000);
            }
            int account = random.nextInt(partitions) * ACCOUNT_SPAN + random.nextInt(ACCOUNTS_PER_PARTITION);
            long started = System.nanoTime();
            try {
                client.runInTransaction("ELASTIC", List.of(account), txn -> {
                    long total = txn.get("ACCOUNT", List.of(account)).map(r -> ((Number) r.get("TOTAL")).longValue()).orElse(0L);
                    txn.put("ACCOUNT", Map.of("A_ID", account, "TOTAL", total + 1));
                    return null;
                });
                acknowledged.computeIfAbsent(account, a -> new LongAdder()).increment();
                commits.incrementAndGet();
            } catch (OutcomeUnknownException e) {
                unknown.computeIfAbsent(account, a -> new LongAdder()).increment();
            } catch (RuntimeException e) {
                errors.add(e.toString());
                sleep(100);
            }
            latency.recordValue(Math.max(1, (System.nanoTime() - started) / 1_000));
        }
    }

    /** Every account holds its acknowledged increments (plus at most the unknown ones); returns {acked, unknown}. */
    private long[] check() {
        long acked = 0;
        long maybe = 0;
        for (int p = 0; p < partitions; p++) {
            for (int i = 0; i < ACCOUNTS_PER_PARTITION; i++) {
                int account = p * ACCOUNT_SPAN + i;
                long total = client.runInTransaction("ELASTIC", List.of(account), txn -> txn.get("ACCOUNT", List.of(account))
                        .map(r -> ((Number) r.get("TOTAL")).longValue()).orElse(0L));
                long ack = acknowledged.getOrDefault(account, new LongAdder()).sum();
                long may = unknown.getOrDefault(account, new LongAdder()).sum();
                if (total < ack || total > ack + may) {
                    throw new IllegalStateException("account " + account + " holds " + total + "; acknowledged " + ack
                            + ", outcome unknown " + may + ": a commit was lost or doubled");
                }
                acked += ack;
                maybe += may;
            }
        }
        return new long[] {acked, maybe};
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package org.elastras.experiments.tpcc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.elastras.experiments.cluster.ElasticLoad;

/**
 * TPC-C as the elasticity experiment's ramping load (issue 8, ElasTraS Figure 7): database TPCC
 * created in a running cluster (one partition per warehouse, placed by its master), loaded and
 * checked as {@code elastras local} does ({@link ScaledDownTpcc}), then
 * {@code terminalsPerWarehouse} terminals per warehouse running the TPC-C mix with the spec's
 * remote warehouses, paced so that together they offer the rate asked for (a terminal whose
 * transactions take longer than its interval offers less). At the end every consistency condition
 * is checked again.
 *
 * <p>Not thread-safe apart from what the driver's thread writes: one caller starts, offers,
 * samples and stops it.
 */
public final class ElasticTpccLoad implements ElasticLoad {

    /** How long {@link #finish} waits for the terminals beyond their run. */
    private static final long FINISH_WAIT_MS = 60_000;

    private final ClusterTpccTarget target;
    private final TpccDriver driver;
    private final int warehouses;
    private final int terminals;
    private final int deliveredAsLoaded;
    private final Thread runner;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicReference<TpccDriver.Result> result = new AtomicReference<>();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private long completedSeen;
    private volatile double lastP50Ms = -1;
    private volatile double lastP99Ms = -1;

    private ElasticTpccLoad(ClusterTpccTarget target, TpccDriver driver, int warehouses, int terminalsPerWarehouse,
            int deliveredAsLoaded, double seconds) {
        this.target = target;
        this.driver = driver;
        this.warehouses = warehouses;
        this.terminals = warehouses * terminalsPerWarehouse;
        this.deliveredAsLoaded = deliveredAsLoaded;
        this.runner = new Thread(() -> {
            try {
                result.set(driver.run(target, terminalsPerWarehouse, 0, seconds, 1, sample -> {
                    completed.addAndGet(sample.completedAll());
                    lastP50Ms = sample.latencyMicrosP50() / 1_000.0;
                    lastP99Ms = sample.latencyMicrosP99() / 1_000.0;
                }));
            } catch (Exception e) {
                failure.set(e);
            }
        }, "elastic-tpcc");
        runner.setDaemon(true);
    }

    /**
     * Creates and loads TPCC in the cluster at {@code zkConnect}, checks it, and starts the terminals
     * at {@code txnPerSecond} for {@code seconds}.
     *
     * @throws IllegalStateException if the loaded database breaks a consistency condition
     */
    public static ElasticTpccLoad start(String zkConnect, int warehouses, int terminalsPerWarehouse, int txnPerSecond,
            double seconds, java.io.PrintStream out) throws Exception {
        long started = System.nanoTime();
        ClusterTpccTarget target = ClusterTpccTarget.attach(zkConnect, warehouses, 1);
        try {
            ScaledDownTpcc loaded = ScaledDownTpcc.load(target, warehouses);
            if (!loaded.violations().isEmpty()) {
                throw new IllegalStateException("TPCC breaks consistency conditions right after loading: " + loaded.violations());
            }
            out.printf(Locale.ROOT, "TPCC: %d warehouses in %d partitions, %,d rows loaded and checked in %.1f s%n", warehouses,
                    warehouses, loaded.rows(), (System.nanoTime() - started) / 1e9);
            TpccDriver driver = loaded.driver();
            int deliveredAsLoaded = loaded.deliveredAsLoaded();
            ElasticTpccLoad l = new ElasticTpccLoad(target, driver, warehouses, terminalsPerWarehouse, deliveredAsLoaded, seconds);
            l.offer(txnPerSecond);
            l.runner.start();
            return l;
        } catch (Exception | Error e) {
            target.close();
            throw e;
        }
    }

    /** From now on the terminals together offer {@code txnPerSecond}. */
    @Override
    public void offer(int txnPerSecond) {
        driver.paceTerminals(Math.max(1, txnPerSecond) / (double) terminals);
    }

    /**
     * Since the previous call (completed transactions, the spec's 1 % of New-Orders rolled back
     * among them). The latencies are those of the driver's last full second (-1 before one); no
     * maximum (-1).
     */
    @Override
    public Interval interval() {
        long c = completed.get();
        long delta = c - completedSeen;
        completedSeen = c;
        return new Interval(delta, lastP50Ms, lastP99Ms, -1);
    }

    /**
     * Waits for the terminals to end their run (the seconds given to {@link #start}), then checks
     * every consistency condition.
     *
     * @throws IllegalStateException if the database breaks one
     */
    @Override
    public Map<String, Object> finish() throws Exception {
        runner.join(FINISH_WAIT_MS);
        if (runner.isAlive()) {
            throw new IllegalStateException("the TPC-C terminals did not end within " + FINISH_WAIT_MS + " ms of their run");
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        TpccDriver.Result r = result.get();
        List<ConsistencyViolation> violations = target.checkConsistency(warehouses, false, deliveredAsLoaded);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("workload", "tpcc, " + warehouses + " warehouses, " + terminals + " terminals, the spec's remote warehouses");
        out.put("client_visible_failures", r.failed());
        out.put("first_failures", r.failuresByReason().toString() + (r.firstError() == null ? "" : "; first: " + r.firstError()));
        out.put("transactions_completed", r.types().values().stream().mapToLong(TpccDriver.TypeResult::completed).sum());
        out.put("new_orders_committed", r.newOrdersCommitted());
        out.put("consistency_violations_after_run", violations.toString());
        if (!violations.isEmpty()) {
            System.out.println("consistency VIOLATIONS after the run: " + violations);
        }
        return out;
    }

    @Override
    public void close() {
        runner.interrupt();
        target.close();
    }
}

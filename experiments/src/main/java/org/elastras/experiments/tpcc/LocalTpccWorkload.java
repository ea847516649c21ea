package org.elastras.experiments.tpcc;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.elastras.master.local.LocalWorkload;

/**
 * The TPC-C that {@code elastras local} runs next to its demo: database TPCC, scaled down
 * (10,000 items, 300 customers per district; one partition per warehouse, placed by the master),
 * loaded through the cluster and checked, then one terminal per warehouse running the TPC-C mix
 * with the spec's remote warehouses, paced to the given rate, in windows of a few seconds until
 * closed. Between two windows (no terminal running) it checks every consistency condition again,
 * after the first window and then every {@link #CHECK_EVERY_SECONDS} s. The status line shows the
 * last second's throughput and p99, failures, and the last check's verdict. Found by
 * {@code LocalCluster} through {@code META-INF/services}. (Not at Ctrl-C: the OTM processes get
 * the terminal's SIGINT too and are gone by then.)
 */
public final class LocalTpccWorkload implements LocalWorkload {

    /** The driver runs in windows this long; closing waits for the current one to end at most. */
    private static final double WINDOW_SECONDS = 3;
    /** How often the consistency conditions are checked between windows. */
    static final long CHECK_EVERY_SECONDS = 30;

    private volatile ClusterTpccTarget target;
    private volatile Thread runner;
    private volatile boolean stopping;
    private final AtomicReference<String> lastSecond = new AtomicReference<>("starting");
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong committed = new AtomicLong();
    private final AtomicReference<String> problem = new AtomicReference<>();
    private volatile String consistency = "not checked";
    private volatile int checksPassed;
    private volatile PrintStream out;
    private volatile int warehouses;
    private volatile int deliveredAsLoaded;

    /** For {@link java.util.ServiceLoader}. */
    public LocalTpccWorkload() {
    }

    @Override
    public String name() {
        return "tpcc";
    }

    @Override
    public void start(String zkConnect, int warehouses, int rateTxnPerSecond, PrintStream out) throws Exception {
        if (warehouses < 1 || rateTxnPerSecond < 1) {
            throw new IllegalArgumentException("TPC-C needs at least 1 warehouse and 1 txn/s, got " + warehouses + " and "
                    + rateTxnPerSecond);
        }
        this.out = out;
        this.warehouses = warehouses;
        long started = System.nanoTime();
        ClusterTpccTarget t = ClusterTpccTarget.attach(zkConnect, warehouses, 1);
        target = t;
        ScaledDownTpcc loaded = ScaledDownTpcc.load(t, warehouses);
        deliveredAsLoaded = loaded.deliveredAsLoaded();
        List<ConsistencyViolation> violations = loaded.violations();
        consistency = violations.isEmpty() ? "consistent after load" : violations.size() + " consistency violations";
        out.printf(Locale.ROOT, "tpcc        database %s: %d warehouses in %d partitions (scaled down: %,d items, %d customers"
                + " per district), %,d rows loaded in %.1f s; %s%n", TpccSchema.DATABASE, warehouses, warehouses,
                ScaledDownTpcc.ITEMS, ScaledDownTpcc.CUSTOMERS_PER_DISTRICT, loaded.rows(), (System.nanoTime() - started) / 1e9,
                violations.isEmpty() ? "every consistency condition holds" : "VIOLATIONS: " + violations);
        TpccDriver driver = loaded.driver();
        driver.paceTerminals((double) rateTxnPerSecond / warehouses);
        Thread thread = new Thread(() -> runWindows(driver, t, warehouses), "local-tpcc");
        thread.setDaemon(true);
        runner = thread;
        thread.start();
        out.printf(Locale.ROOT, "tpcc        %d terminals (one per warehouse), the TPC-C mix with remote warehouses,"
                + " at most %d txn/s%n", warehouses, rateTxnPerSecond);
    }

    private void runWindows(TpccDriver driver, ClusterTpccTarget t, int terminals) {
        AtomicInteger historyStream = new AtomicInteger(1);
        long lastCheckNanos = 0;
        while (!stopping) {
            try {
                TpccDriver.Result r = driver.run(t, 1, 0, WINDOW_SECONDS, historyStream.getAndAdd(terminals), sample -> {
                    lastSecond.set(String.format(Locale.ROOT, "%.1f txn/s p99 %.1f ms", sample.completedAll() / sample.intervalSeconds(),
                            sample.latencyMicrosP99() / 1000.0));
                });
                failed.addAndGet(r.failed());
                committed.addAndGet(r.newOrdersCommitted());
                if (r.firstError() != null) {
                    problem.set(r.firstError());
                }
                if (checksPassed == 0 || System.nanoTime() - lastCheckNanos > CHECK_EVERY_SECONDS * 1_000_000_000L) {
                    lastCheckNanos = System.nanoTime();
                    check(t);
                }
            } catch (Exception e) {
                if (stopping) {
                    return;
                }
                problem.set(e.toString());
                try {
                    Thread.sleep(1_000); // the cluster may be failing over: try again
                } catch (InterruptedException ie) {
                    return;
                }
            }
        }
    }

    /** Every consistency condition, with no terminal running (between two windows). */
    private void check(ClusterTpccTarget t) throws Exception {
        List<ConsistencyViolation> violations = t.checkConsistency(warehouses, false, deliveredAsLoaded);
        if (violations.isEmpty()) {
            checksPassed++;
            consistency = "consistent (" + checksPassed + " checks during the run)";
        } else {
            consistency = "VIOLATIONS: " + violations;
            out.println("tpcc        consistency VIOLATIONS during the run: " + violations);
        }
    }

    @Override
    public String status() {
        String p = problem.get();
        return "tpcc " + lastSecond.get() + ", " + committed.get() + " new orders, " + failed.get() + " failed, " + consistency
                + (p == null ? "" : " (last problem: " + p + ")");
    }

    @Override
    public void close() {
        stopping = true;
        Thread r = runner;
        if (r != null) {
            try {
                r.join((long) (WINDOW_SECONDS * 1_000) + 10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ClusterTpccTarget t = target;
        target = null;
        if (t != null) {
            t.close();
        }
    }
}

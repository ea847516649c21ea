package org.elastras.experiments.otm;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Drives one {@link TransactionTarget} with C client threads in a closed loop: each thread opens
 * its own session and runs one transaction after another over ten distinct random keys, for a
 * warm-up and then a measured period. Only transactions that start and end inside the measured
 * period are measured; every committed one is counted for the after-run balance check. Keys come
 * from a per-thread {@link SplittableRandom} seeded from the run's seed, so a run's key sequence
 * is reproducible. Used by the benchmark's main thread, one run at a time.
 */
final class ClosedLoopDriver {

    /** Longest latency the histograms hold: one minute, in microseconds. */
    private static final long LATENCY_MICROS_MAX = 60_000_000L;
    private static final int SIGNIFICANT_DIGITS = 3;

    private static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    private final long rows;
    private final long seed;

    ClosedLoopDriver(long rows, long seed) {
        if (rows < ItemTable.READS_PER_TRANSACTION) {
            throw new IllegalArgumentException("rows must be at least " + ItemTable.READS_PER_TRANSACTION + ", got " + rows);
        }
        this.rows = rows;
        this.seed = seed;
    }

    /** What one run measured. */
    record Result(String system, int writesPerTransaction, int threads, double seconds, long transactions, long latencyMicrosP50,
            long latencyMicrosP99, long latencyMicrosMax, double latencyMicrosMean, long retries,
            long transactionsRetried, long errors, String firstError, long committedInAll, long errorsInAll,
            double loadAverageStart, double loadAverageEnd, long processCpuNanos) {

        double transactionsPerSecond() {
            return transactions / seconds;
        }

        /**
         * CPU time of this whole JVM (clients, server, WAL, JIT and GC) per measured transaction,
         * in microseconds: what a transaction costs, whatever share of the cores the run got.
         */
        double cpuMicrosPerTransaction() {
            return transactions == 0 ? 0 : processCpuNanos / 1_000.0 / transactions;
        }

        /** Cores this JVM kept busy on average during the measured period. */
        double coresBusy() {
            return processCpuNanos / (seconds * 1e9);
        }
    }

    /** Runs {@code threads} client threads against {@code target}: warm-up, then the measured period. */
    Result run(TransactionTarget target, int threads, double warmupSeconds, double measureSeconds) throws Exception {
        Phase phase = new Phase();
        ThreadStats[] stats = new ThreadStats[threads];
        AtomicReference<String> firstError = new AtomicReference<>();
        AtomicReference<Throwable> broken = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch done = new CountDownLatch(threads);
        List<Thread> clients = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            ThreadStats mine = new ThreadStats();
            stats[t] = mine;
            SplittableRandom random = new SplittableRandom(seed * 1_000_003L + threads * 1_009L + t);
            Thread client = new Thread(() -> {
                try (TransactionTarget.Session session = target.openSession()) {
                    ready.countDown();
                    long[] keys = new long[ItemTable.READS_PER_TRANSACTION];
                    int p;
                    while ((p = phase.value) != Phase.STOP) {
                        pickKeys(random, keys);
                        long startNanos = System.nanoTime();
                        try {
                            int retries = session.run(keys);
                            mine.committedInAll++;
                            if (p == Phase.MEASURE && phase.value == Phase.MEASURE) {
                                mine.latency.recordValue(Math.min((System.nanoTime() - startNanos) / 1_000, LATENCY_MICROS_MAX));
                                mine.retries += retries;
                                mine.transactionsRetried += retries > 0 ? 1 : 0;
                            }
                        } catch (Exception e) {
                            mine.errorsInAll++;
                            if (p == Phase.MEASURE) {
                                mine.errors++;
                            }
                            firstError.compareAndSet(null, e.toString());
                        }
                    }
                } catch (Throwable e) {
                    broken.compareAndSet(null, e);
                    ready.countDown();
                } finally {
                    done.countDown();
                }
            }, target.name() + "-client-" + t);
            client.setDaemon(true);
            clients.add(client);
        }
        clients.forEach(Thread::start);
        ready.await();
        double loadStart = LoadAverage.oneMinute();
        Thread.sleep((long) (warmupSeconds * 1_000));
        long cpuStartNanos = PROCESS.getProcessCpuTime();
        long startNanos = System.nanoTime();
        phase.value = Phase.MEASURE;
        Thread.sleep((long) (measureSeconds * 1_000));
        phase.value = Phase.STOP;
        long measuredNanos = System.nanoTime() - startNanos;
        long cpuNanos = PROCESS.getProcessCpuTime() - cpuStartNanos;
        double loadEnd = LoadAverage.oneMinute();
        done.await();
        if (broken.get() != null) {
            throw new IllegalStateException(target.name() + " with " + threads + " threads: a client thread failed outside"
                    + " a transaction", broken.get());
        }
        Histogram all = newHistogram();
        long transactions = 0;
        long retries = 0;
        long retried = 0;
        long errors = 0;
        long committedInAll = 0;
        long errorsInAll = 0;
        for (ThreadStats s : stats) {
            all.add(s.latency);
            transactions += s.latency.getTotalCount();
            retries += s.retries;
            retried += s.transactionsRetried;
            errors += s.errors;
            committedInAll += s.committedInAll;
            errorsInAll += s.errorsInAll;
        }
        return new Result(target.name(), target.writesPerTransaction(), threads, measuredNanos / 1e9, transactions, all.getValueAtPercentile(50),
                all.getValueAtPercentile(99), all.getMaxValue(), all.getMean(), retries, retried, errors, firstError.get(),
                committedInAll, errorsInAll, loadStart, loadEnd, cpuNanos);
    }

    /** Ten distinct keys in [0, rows), in the order drawn. */
    private void pickKeys(SplittableRandom random, long[] keys) {
        for (int i = 0; i < keys.length; i++) {
            long key;
            boolean duplicate;
            do {
                key = random.nextLong(rows);
                duplicate = false;
                for (int j = 0; j < i; j++) {
                    duplicate |= keys[j] == key;
                }
            } while (duplicate);
            keys[i] = key;
        }
    }

    private static Histogram newHistogram() {
        return new Histogram(LATENCY_MICROS_MAX, SIGNIFICANT_DIGITS);
    }

    /** One client thread's counts; written by that thread, read by the driver after it ended. */
    private static final class ThreadStats {
        final Histogram latency = newHistogram();
        long retries;
        long transactionsRetried;
        long errors;
        long committedInAll;
        long errorsInAll;
    }

    /** The phase the client threads read before and after every transaction; written by the driver only. */
    private static final class Phase {
        static final int WARM_UP = 0;
        static final int MEASURE = 1;
        static final int STOP = 2;
        volatile int value = WARM_UP;
    }
}

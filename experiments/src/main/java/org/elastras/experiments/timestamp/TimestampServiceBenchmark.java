package org.elastras.experiments.timestamp;

import org.elastras.client.protocol.TimestampReply;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.CtsRange;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.elastras.master.timestamp.InMemoryHighWaterMarkStore;
import org.elastras.master.timestamp.TimestampService;
import org.elastras.master.timestamp.TimestampServiceConfig;

/**
 * Capacity of the TM master's timestamp service: a simulation of many OTMs, each exchanging with
 * the service once per simulated period, driven as fast as a few threads can go. Each OTM commits
 * at its own rate (drawn once, 50 to 500 commits per period: 5k to 50k commits/s at a 10 ms
 * period), and every OTM runs period k before any runs k + 1; 90% of a period's commits are readable by its next exchange, the rest one period later
 * (out of order); the untaken rest of each range is reported unused. No network: this is the
 * service's own ceiling (lock, sequencer, snapshot server), with the high-water mark in memory.
 *
 * <p>Figures: CTSs handed out per second (sum of new range sizes), CTSs taken per second (commits
 * the simulated OTMs ran), exchanges per second, and snapshot lag (last CTS issued minus snapshot,
 * sampled every millisecond), also expressed in simulated periods of the whole cluster. Baseline
 * in the same run: the per-transaction counter (one atomic increment per CTS from the same
 * threads, LeanXcale's Algorithm 5 without ranges).
 *
 * <p>Arguments: [output directory (experiments/results)] [measured seconds (5)] [threads (3)] [OTMs (200)].
 */
public final class TimestampServiceBenchmark {

    /** One simulated OTM; used by one driver thread only. */
    private static final class Otm {
        final String id;
        final int commitsPerPeriod;
        CtsRange current;
        long nextCts;
        long takenCount;
        /** Readable one period late: [lateFirst, lateLast] or none if lateFirst == 0. */
        long lateFirst;
        long lateLast;
        CtsRange pendingUnused;
        /** Commits run in the last period. */
        long lastCommits;

        Otm(String id, int commitsPerPeriod) {
            this.id = id;
            this.commitsPerPeriod = commitsPerPeriod;
        }

        /** Runs one period's commits and builds the report for this period's exchange. */
        TimestampReport period() {
            List<CtsRange> readable = new ArrayList<>(2);
            List<CtsRange> unused = new ArrayList<>(1);
            if (lateFirst != 0) {
                readable.add(new CtsRange(lateFirst, lateLast));
                lateFirst = 0;
            }
            if (pendingUnused != null) {
                unused.add(pendingUnused);
                pendingUnused = null;
            }
            lastCommits = 0;
            if (current != null) {
                long available = current.lastCts() - nextCts + 1;
                long commits = Math.min(commitsPerPeriod, available);
                if (commits > 0) {
                    long first = nextCts;
                    long last = nextCts + commits - 1;
                    long late = commits / 10;
                    if (last - late >= first) {
                        readable.add(new CtsRange(first, last - late));
                    }
                    if (late > 0) {
                        lateFirst = last - late + 1;
                        lateLast = last;
                    }
                    nextCts = last + 1;
                    takenCount += commits;
                    lastCommits = commits;
                }
            }
            // Owed ranges matter only at a first contact after a master failover; none here.
            return new TimestampReport(current, takenCount, readable, unused, List.of());
        }

        /** Returns the CTSs newly handed out. */
        long received(TimestampReply reply) {
            if (reply.newRange() == null) {
                return 0;
            }
            if (current != null && nextCts <= current.lastCts()) {
                pendingUnused = new CtsRange(nextCts, current.lastCts());
            }
            current = reply.newRange();
            nextCts = current.firstCts();
            takenCount = 0;
            return current.sizeCts();
        }
    }

    public static void main(String[] args) throws Exception {
        Path outDir = Path.of(args.length > 0 ? args[0] : "experiments/results");
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        int otmCount = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        long seed = 20240607L;

        TimestampServiceConfig config = TimestampServiceConfig.defaults();
        TimestampService service = TimestampService.start(new InMemoryHighWaterMarkStore(new InMemoryHighWaterMarkStore.Node()),
                config);
        service.inheritedClaimsComplete();
        SplittableRandom random = new SplittableRandom(seed);
        List<Otm> otms = new ArrayList<>();
        long commitsPerRound = 0;
        for (int i = 0; i < otmCount; i++) {
            int rate = 50 + random.nextInt(451);
            otms.add(new Otm("otm-" + i, rate));
            commitsPerRound += rate;
        }

        LongAdder handedOutCts = new LongAdder();
        LongAdder takenCts = new LongAdder();
        LongAdder exchanges = new LongAdder();
        AtomicBoolean measuring = new AtomicBoolean(false);
        AtomicBoolean stop = new AtomicBoolean(false);
        // Every OTM runs period k before any runs k + 1, as in a cluster where periods follow one clock.
        CyclicBarrier periodEnd = new CyclicBarrier(threads);
        List<Thread> drivers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            List<Otm> mine = new ArrayList<>();
            for (int i = t; i < otms.size(); i += threads) {
                mine.add(otms.get(i));
            }
            Thread driver = new Thread(() -> {
                long handed = 0;
                long taken = 0;
                long count = 0;
                while (!stop.get()) {
                    for (Otm otm : mine) {
                        TimestampReport report = otm.period();
                        TimestampReply reply = service.exchange(otm.id, report);
                        long newly = otm.received(reply);
                        if (measuring.get()) {
                            handed += newly;
                            taken += otm.lastCommits;
                            count++;
                        }
                    }
                    try {
                        periodEnd.await();
                    } catch (InterruptedException | BrokenBarrierException e) {
                        return;
                    }
                    if (count >= 4096) {
                        handedOutCts.add(handed);
                        takenCts.add(taken);
                        exchanges.add(count);
                        handed = 0;
                        taken = 0;
                        count = 0;
                    }
                }
                handedOutCts.add(handed);
                takenCts.add(taken);
                exchanges.add(count);
            }, "timestamp-driver-" + t);
            drivers.add(driver);
            driver.start();
        }

        Thread.sleep(1000); // warm-up
        measuring.set(true);
        long lagSum = 0;
        long lagMax = 0;
        long lagSamples = 0;
        long startNanos = System.nanoTime();
        long endNanos = startNanos + seconds * 1_000_000_000L;
        while (System.nanoTime() < endNanos) {
            Thread.sleep(1);
            long lag = service.issuedUpToCts() - service.snapshotCts();
            lagSum += lag;
            lagMax = Math.max(lagMax, lag);
            lagSamples++;
        }
        measuring.set(false);
        double elapsedSeconds = (System.nanoTime() - startNanos) / 1e9;
        stop.set(true);
        for (Thread driver : drivers) {
            driver.join(5000);
            if (driver.isAlive()) {
                periodEnd.reset(); // a driver waits for others that already stopped
                driver.join();
            }
        }

        // Baseline: one atomic increment per CTS (a reactive, per-transaction sequencer), same threads.
        AtomicLong counter = new AtomicLong();
        LongAdder baselineCts = new LongAdder();
        AtomicBoolean baselineStop = new AtomicBoolean(false);
        List<Thread> baseline = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                long n = 0;
                while (!baselineStop.get()) {
                    for (int i = 0; i < 1024; i++) {
                        counter.incrementAndGet();
                    }
                    n += 1024;
                }
                baselineCts.add(n);
            });
            baseline.add(thread);
            thread.start();
        }
        long baselineStart = System.nanoTime();
        Thread.sleep(1000);
        baselineStop.set(true);
        for (Thread thread : baseline) {
            thread.join();
        }
        double baselineSeconds = (System.nanoTime() - baselineStart) / 1e9;

        double handedPerSecond = handedOutCts.sum() / elapsedSeconds;
        double takenPerSecond = takenCts.sum() / elapsedSeconds;
        double exchangesPerSecond = exchanges.sum() / elapsedSeconds;
        double lagMeanCts = lagSamples == 0 ? 0 : (double) lagSum / lagSamples;
        double baselinePerSecond = baselineCts.sum() / baselineSeconds;
        double roundsPerSecond = exchangesPerSecond / otmCount;

        System.out.printf("timestamp service: %d OTMs, %d driver threads, %.1f s measured, %d commits per cluster period%n",
                otmCount, threads, elapsedSeconds, commitsPerRound);
        System.out.printf("  CTSs handed out  %,15.0f /s   (target >= 5,000,000)%n", handedPerSecond);
        System.out.printf("  CTSs taken       %,15.0f /s   (commits the simulated OTMs ran)%n", takenPerSecond);
        System.out.printf("  exchanges        %,15.0f /s   (%,.0f cluster periods/s)%n", exchangesPerSecond, roundsPerSecond);
        System.out.printf("  snapshot lag     %,15.0f CTSs mean, %,d max (%.2f cluster periods of issuing, mean)%n", lagMeanCts,
                lagMax, lagMeanCts / Math.max(1.0, handedPerSecond / roundsPerSecond));
        System.out.printf("  baseline: one atomic increment per CTS: %,.0f CTS/s%n", baselinePerSecond);
        System.out.printf("  last CTS issued %d, durable mark %d, pending ranges %d%n", service.issuedUpToCts(),
                service.durableMarkCts(), service.pendingRanges());

        Files.createDirectories(outDir);
        Path csv = outDir.resolve("timestamp-service.csv");
        try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(csv))) {
            out.println("otms,threads,measured_s,commits_per_cluster_period,cts_handed_out_per_s,cts_taken_per_s,exchanges_per_s,"
                    + "snapshot_lag_mean_cts,snapshot_lag_max_cts,baseline_atomic_increment_cts_per_s");
            out.printf("%d,%d,%.2f,%d,%.0f,%.0f,%.0f,%.0f,%d,%.0f%n", otmCount, threads, elapsedSeconds, commitsPerRound,
                    handedPerSecond, takenPerSecond, exchangesPerSecond, lagMeanCts, lagMax, baselinePerSecond);
        } catch (IOException e) {
            throw new IOException("cannot write " + csv + ": " + e.getMessage(), e);
        }
        System.out.println("wrote " + csv);
    }
}

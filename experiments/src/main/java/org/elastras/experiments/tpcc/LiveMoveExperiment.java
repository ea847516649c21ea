package org.elastras.experiments.tpcc;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.experiments.LinePlot;
import org.elastras.experiments.ResultFiles;

/**
 * Partition moves under TPC-C load, like LeanXcale's Figures 9-10 (issue 10): the cluster target
 * (ZooKeeper, a master and OTM processes, one warehouse per partition) runs the TPC-C terminals
 * while a mover asks the master, every few seconds, to move the next partition to the other OTM,
 * alternating live and coordinated moves, so both are measured in the same run on the same load.
 *
 * <p>Per move: how long from the request to serving at the destination, the master's account of
 * the unavailability (for a live move, from the origin's pause to the destination serving; for a
 * coordinated move, from the request: the partition stops admitting at once), and what a client
 * saw: one probe thread per warehouse reads its WAREHOUSE row through the routing client again
 * and again, and the slowest probe on the moved partition during the move is the unavailability a
 * client felt (retries included). Client-visible failures are the terminals' failed transactions
 * and the probes' errors. p99 during moves vs steady state from the probes (exact) and from the
 * terminals' per-second p99.
 *
 * <p>Writes {@code livemove.json}, {@code livemove-moves.csv}, {@code livemove-timeline.csv} and
 * {@code livemove.png} to {@code --out}.
 */
public final class LiveMoveExperiment {

    private static final List<String> NAMES = List.of("warehouses", "terminals-per-warehouse", "items", "customers",
            "warmup-seconds", "seconds", "move-every-seconds", "modes", "load-threads", "seed", "out", "otm-heap-mb", "remote", "work-dir",
            "rate");
    /** A probe's pause between reads: enough to see a gap of a few milliseconds, light on 2 cores. */
    private static final long PROBE_PAUSE_MS = 2;
    private static final long MOVE_BOUND_MS = 60_000;
    /**
     * The mover's pause between asking the master whether the move is done. Every 1 ms (until
     * session 25) cost the master and this JVM about 0.06 of the machine's 2 cores in the seconds
     * with a move, load the experiment put on the very seconds it measures; the unavailability
     * comes from the master's log and the probes, so only request-to-serving loses precision.
     */
    private static final long MOVE_POLL_MS = 10;
    private static final Pattern MOVED = Pattern.compile(
            "partition (\\d+) moved from (\\S+) to (\\S+) in (\\d+) ms \\((?:(?:live, )?unavailable (\\d+) ms: )?(.*)\\)$");

    private LiveMoveExperiment() {
    }

    /** One move as the mover and the probes saw it. */
    record MoveRecord(long partitionId, int warehouse, boolean live, String from, String to, long startNanos, long endNanos,
            long startEpochMs, long requestToServingMs, long probeMaxMs, long probeErrors, String error) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> v = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length || !NAMES.contains(args[i].substring(2))) {
                System.err.println("usage: LiveMoveExperiment [--name value]..., names " + NAMES);
                System.exit(2);
            }
            v.put(args[i].substring(2), args[i + 1]);
        }
        int warehouses = Integer.parseInt(v.getOrDefault("warehouses", "4"));
        TpccScale scale = TpccScale.scaledDown(warehouses, Integer.parseInt(v.getOrDefault("items", "10000")),
                Integer.parseInt(v.getOrDefault("customers", "300")));
        int terminals = Integer.parseInt(v.getOrDefault("terminals-per-warehouse", "4"));
        double warmup = Double.parseDouble(v.getOrDefault("warmup-seconds", "15"));
        double seconds = Double.parseDouble(v.getOrDefault("seconds", "120"));
        long moveEveryMs = (long) (Double.parseDouble(v.getOrDefault("move-every-seconds", "8")) * 1000);
        List<Boolean> modes = new ArrayList<>();
        for (String m : v.getOrDefault("modes", "live,coordinated").split(",")) {
            if (!m.equals("live") && !m.equals("coordinated")) {
                throw new IllegalArgumentException("--modes takes live and coordinated, got " + m);
            }
            modes.add(m.equals("live"));
        }
        int loadThreads = Integer.parseInt(v.getOrDefault("load-threads", "2"));
        // Total TPC-C transactions per second the terminals offer; 0: as many as they can (closed loop).
        double rate = Double.parseDouble(v.getOrDefault("rate", "0"));
        if (rate < 0) {
            throw new IllegalArgumentException("--rate must be 0 (closed loop) or a positive number of transactions per second");
        }
        long seed = Long.parseLong(v.getOrDefault("seed", "42"));
        Path out = Paths.get(v.getOrDefault("out", "experiments/results/livemove"));
        int otmHeapMb = Integer.parseInt(v.getOrDefault("otm-heap-mb", "768"));
        RemoteWarehouses remote = RemoteWarehouses.parse(v.getOrDefault("remote", RemoteWarehouses.SPEC.optionName()));
        if (warehouses < 2) {
            throw new IllegalArgumentException("--warehouses must be at least 2 (one partition per OTM at least)");
        }
        Files.createDirectories(out);
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        java.util.logging.Logger.getLogger("org.elastras").setLevel(java.util.logging.Level.WARNING);
        System.out.println("moves under TPC-C: " + scale.describe() + ", " + terminals + " terminals/warehouse, 2 OTM processes,"
                + " one warehouse per partition, remote warehouses " + remote.optionName() + ", "
                + (rate > 0 ? "offered load " + rate + " txn/s" : "closed loop (as fast as the terminals go)") + "; a move every " + moveEveryMs
                + " ms, modes " + modes + "; load average "
                + TpccBenchmark.loadAverage());

        // A given work directory (cluster data, process logs) is kept; a temporary one is deleted.
        boolean keep = v.containsKey("work-dir");
        if (keep && Files.isDirectory(Paths.get(v.get("work-dir")))) {
            try (var entries = Files.list(Paths.get(v.get("work-dir")))) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException("--work-dir " + v.get("work-dir") + " is not empty (a previous"
                            + " run's cluster?); give a new or empty directory");
                }
            }
        }
        Path scratch = keep ? Files.createDirectories(Paths.get(v.get("work-dir"))) : Files.createTempDirectory("livemove");
        try (ClusterTpccTarget target = ClusterTpccTarget.start(scratch, warehouses, 1, 2, otmHeapMb)) {
            TpccDataGenerator generator = new TpccDataGenerator(scale, seed, System.currentTimeMillis() * 1_000);
            NuRandConstants run = generator.loadConstants().forRun(seed);
            TpccLoader.Report load = new TpccLoader(generator, loadThreads).load(target, (rows, expected) -> { });
            System.out.printf(Locale.ROOT, "loaded %,d rows in %.1f s%n", load.rows(), load.seconds());
            int deliveredAsLoaded = scale.firstNewOrderId() - 1;
            List<ConsistencyViolation> afterLoad = target.checkConsistency(warehouses, true, deliveredAsLoaded);

            try (ElasTrasClient client = ElasTrasClient.connect(target.zkConnect())) {
                Run r = measure(target, client, scale, run, seed, remote, terminals, rate, warmup, seconds, moveEveryMs,
                        modes);
                List<ConsistencyViolation> afterRun = target.checkConsistency(warehouses, false, deliveredAsLoaded);
                Map<Long, List<String[]>> masterSays = masterAccount(scratch.resolve("logs").resolve("master-1.log"));
                report(out, scale, terminals, r, masterSays, afterLoad, afterRun);
            }
        } finally {
            if (!keep) {
                ResultFiles.deleteTree(scratch);
            }
        }
    }

    /** What one run measured. */
    record Run(TpccDriver.Result tpcc, double offeredTxnPerSecond, List<MoveRecord> moves, List<Second> seconds, Histogram probeSteady,
            Histogram probeMoving, long probeErrors, long terminalCatalogReads, long probeCatalogReads, String loadBefore,
            String loadAfter) {
    }

    /**
     * One second of the measured period; in a second with a move, the terminals' transactions split
     * by home warehouse into the moved one ({@code moved}) and the rest, which tells a slowdown of
     * the moving partition from one of the whole machine.
     */
    record Second(double t, long txn, long failed, double p50Ms, double p99Ms, double probeMaxMs, boolean moving,
            int movedWarehouse, Split moved, Split rest) {
    }

    /** Transactions finished in one second by some of the terminals, with their latency percentiles. */
    record Split(long txn, double p50Ms, double p99Ms) {

        static final Split NONE = new Split(0, 0, 0);

        static Split of(Histogram h) {
            return h.getTotalCount() == 0 ? NONE : new Split(h.getTotalCount(), h.getValueAtPercentile(50) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0);
        }
    }

    private static Run measure(ClusterTpccTarget target, ElasTrasClient client, TpccScale scale, NuRandConstants run,
            long seed, RemoteWarehouses remote, int terminals, double rate, double warmup, double seconds, long moveEveryMs,
            List<Boolean> modes) throws Exception {
        int warehouses = scale.warehouses();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong movingWarehouse = new AtomicLong(0);
        // The warehouse of the move under way or of the last one (kept after it ends, for its last second).
        AtomicLong lastMovedWarehouse = new AtomicLong(0);
        Recorder[] byWarehouse = new Recorder[warehouses + 1];
        for (int w = 1; w <= warehouses; w++) {
            byWarehouse[w] = new Recorder(60_000_000L, 3);
        }
        TpccTarget timedTarget = new WarehouseTimedTarget(target, (w, micros) -> {
            if (w >= 1 && w <= warehouses) {
                byWarehouse[w].recordValue(Math.min(micros, 60_000_000L));
            }
        });
        // Set whenever a move was under way since the last one-second sample (moves last less than a second).
        AtomicBoolean movedThisSecond = new AtomicBoolean();
        Histogram probeSteady = new Histogram(60_000_000L, 3);
        Histogram probeMoving = new Histogram(60_000_000L, 3);
        AtomicLong probeErrors = new AtomicLong();
        AtomicLong[] probeMaxMicros = new AtomicLong[warehouses + 1];
        // When the probe of each warehouse started its current read (0 between reads).
        AtomicLong[] probeStartedNanos = new AtomicLong[warehouses + 1];
        AtomicLong secondProbeMax = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        List<Thread> probes = new ArrayList<>();
        for (int w = 1; w <= warehouses; w++) {
            int wh = w;
            probeMaxMicros[w] = new AtomicLong();
            probeStartedNanos[w] = new AtomicLong();
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    long started = System.nanoTime();
                    probeStartedNanos[wh].set(started);
                    boolean moving = movingWarehouse.get() == wh;
                    try {
                        client.runInTransaction(TpccSchema.DATABASE, List.of(wh), txn -> txn.get(TpccSchema.WAREHOUSE,
                                List.of(wh)));
                    } catch (RuntimeException e) {
                        probeErrors.incrementAndGet();
                        if (errors.size() < 10) {
                            errors.add("probe w" + wh + ": " + e);
                        }
                    }
                    long micros = (System.nanoTime() - started) / 1_000;
                    moving |= movingWarehouse.get() == wh;
                    synchronized (probeSteady) {
                        (moving ? probeMoving : probeSteady).recordValue(Math.min(micros, 60_000_000L));
                    }
                    probeMaxMicros[wh].accumulateAndGet(micros, Math::max);
                    probeStartedNanos[wh].set(0);
                    secondProbeMax.accumulateAndGet(micros, Math::max);
                    sleep(PROBE_PAUSE_MS);
                }
            }, "probe-w" + w);
            t.setDaemon(true);
            probes.add(t);
        }
        probes.forEach(Thread::start);

        List<MoveRecord> moves = Collections.synchronizedList(new ArrayList<>());
        long measureStartNanos = System.nanoTime() + (long) (warmup * 1e9);
        // Every OTM that owned a partition of the database in this run: a move's destination is one
        // of them other than the partition's owner, even once the other owns nothing of it.
        Set<String> otmsSeen = new LinkedHashSet<>();
        Thread mover = new Thread(() -> {
            int n = 0;
            long next = measureStartNanos + moveEveryMs * 1_000_000 / 2;
            while (!stop.get()) {
                long waitMs = (next - System.nanoTime()) / 1_000_000;
                if (waitMs > 0) {
                    sleep(Math.min(waitMs, 100));
                    continue;
                }
                next += moveEveryMs * 1_000_000;
                if (System.nanoTime() > measureStartNanos + (long) (seconds * 1e9) - moveEveryMs * 1_000_000 / 2) {
                    continue; // no move may straddle the end of the measured period
                }
                int w = n % warehouses + 1;
                boolean live = modes.get(n % modes.size());
                n++;
                lastMovedWarehouse.set(w);
                movedThisSecond.set(true);
                moves.add(moveOne(client, w, live, otmsSeen, movingWarehouse, probeMaxMicros[w], probeStartedNanos[w],
                        probeErrors));
                movedThisSecond.set(true);
            }
        }, "mover");
        mover.setDaemon(true);

        List<Second> perSecond = Collections.synchronizedList(new ArrayList<>());
        String loadBefore = TpccBenchmark.loadAverage();
        long terminalReadsBefore = target.catalogReads();
        long probeReadsBefore = client.catalogReads();
        mover.start();
        TpccDriver.Result result;
        try {
            TpccDriver driver = new TpccDriver(scale, run, seed, remote, () -> System.currentTimeMillis() * 1_000);
            driver.paceTerminals(rate / (terminals * (double) warehouses));
            result = driver.run(timedTarget, terminals,
                    warmup, seconds, 1, sample -> {
                        long max = secondProbeMax.getAndSet(0);
                        boolean moved = movedThisSecond.getAndSet(movingWarehouse.get() != 0);
                        Histogram[] second = new Histogram[warehouses + 1];
                        for (int w = 1; w <= warehouses; w++) {
                            second[w] = byWarehouse[w].getIntervalHistogram();
                        }
                        if (!sample.measured()) {
                            return;
                        }
                        boolean moving = moved || movingWarehouse.get() != 0;
                        int movedWarehouse = moving ? (int) lastMovedWarehouse.get() : 0;
                        Histogram rest = new Histogram(60_000_000L, 3);
                        for (int w = 1; w <= warehouses; w++) {
                            if (w != movedWarehouse) {
                                rest.add(second[w]);
                            }
                        }
                        perSecond.add(new Second(sample.endSeconds() - warmup, sample.completedAll(), sample.failed(),
                                sample.latencyMicrosP50() / 1000.0, sample.latencyMicrosP99() / 1000.0, max / 1000.0,
                                moving, movedWarehouse, movedWarehouse == 0 ? Split.NONE : Split.of(second[movedWarehouse]),
                                Split.of(rest)));
                        if (sample.endSeconds() % 5 < sample.intervalSeconds()) {
                            System.out.println(sample.progressLine(target.name()) + (movingWarehouse.get() != 0
                                    ? "  (moving w" + movingWarehouse.get() + ")" : ""));
                        }
                    });
        } finally {
            stop.set(true);
            mover.join(MOVE_BOUND_MS);
            for (Thread t : probes) {
                t.join(10_000);
            }
        }
        errors.forEach(e -> System.out.println("  " + e));
        return new Run(result, rate, List.copyOf(moves), List.copyOf(perSecond), probeSteady, probeMoving, probeErrors.get(),
                target.catalogReads() - terminalReadsBefore, client.catalogReads() - probeReadsBefore, loadBefore,
                TpccBenchmark.loadAverage());
    }

    /**
     * Moves warehouse {@code w}'s partition to another OTM of {@code otmsSeen} (to which this adds
     * the partitions' owners now) and waits until it serves there.
     */
    private static MoveRecord moveOne(ElasTrasClient client, int w, boolean live, Set<String> otmsSeen,
            AtomicLong movingWarehouse, AtomicLong probeMax, AtomicLong probeStarted, AtomicLong probeErrors) {
        PartitionInfo p = partitionOf(client, w);
        client.admin().partitions(TpccSchema.DATABASE).stream().map(PartitionInfo::owner).filter(o -> o != null)
                .forEach(otmsSeen::add);
        String to = otmsSeen.stream().filter(o -> !o.equals(p.owner())).findFirst().orElse(null);
        long startEpochMs = System.currentTimeMillis();
        long start = System.nanoTime();
        if (to == null) {
            return new MoveRecord(p.partitionId(), w, live, p.owner(), "?", start, start, startEpochMs, 0, 0, 0,
                    "no other OTM owned a partition in this run");
        }
        long errorsBefore = probeErrors.get();
        probeMax.set(0);
        movingWarehouse.set(w);
        String error = null;
        try {
            client.admin().movePartition(p.partitionId(), to, live);
            long deadline = start + MOVE_BOUND_MS * 1_000_000;
            while (true) {
                PartitionInfo now = partitionOf(client, w);
                if (now.state().equals("SERVING") && to.equals(now.owner())) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    error = "not serving at " + to + " after " + MOVE_BOUND_MS + " ms: " + now;
                    break;
                }
                sleep(MOVE_POLL_MS);
            }
        } catch (RuntimeException e) {
            error = e.toString();
        }
        long end = System.nanoTime();
        // The probe under way when the move ended may still be waiting for a retry: let it land
        // (bounded), so that its time counts for this move.
        long landBy = System.nanoTime() + 30_000_000_000L;
        while (true) {
            long started = probeStarted.get();
            if (started == 0 || started > end || System.nanoTime() > landBy) {
                break;
            }
            sleep(1);
        }
        movingWarehouse.set(0);
        return new MoveRecord(p.partitionId(), w, live, p.owner(), to, start, end, startEpochMs, (end - start) / 1_000_000,
                probeMax.get() / 1_000, probeErrors.get() - errorsBefore, error);
    }

    /** The partition of warehouse {@code w} (one warehouse per partition, ordered by start key). */
    private static PartitionInfo partitionOf(ElasTrasClient client, int w) {
        List<PartitionInfo> all = new ArrayList<>(client.admin().partitions(TpccSchema.DATABASE));
        all.sort(Comparator.comparingLong(p -> p.startKey() == null ? 0 : ((Number) p.startKey().get(0)).longValue()));
        return all.get(w - 1);
    }

    /**
     * Partition id -> [unavailable ms or "", breakdown, total ms, from, to] of each of its moves, in
     * the order the master finished them, from the master's log.
     */
    private static Map<Long, List<String[]>> masterAccount(Path log) throws IOException {
        Map<Long, List<String[]>> byPartition = new LinkedHashMap<>();
        if (!Files.exists(log)) {
            return Map.of();
        }
        for (String line : Files.readAllLines(log)) {
            Matcher m = MOVED.matcher(line.trim());
            if (m.find()) {
                byPartition.computeIfAbsent(Long.parseLong(m.group(1)), k -> new ArrayList<>())
                        .add(new String[] {m.group(5) == null ? "" : m.group(5), m.group(6), m.group(4), m.group(2), m.group(3)});
            }
        }
        return byPartition;
    }

    /**
     * The master's account of each move, in the order of {@code moves}: the first of the
     * partition's accounts not yet taken, made later than the ones taken, that names the same
     * origin and destination; none ({@code ["", "", ""]}) for a move the master did not finish,
     * such as one never asked for. The mover makes one move at a time, so a partition's moves end
     * in the order they were made.
     */
    static List<String[]> accounts(List<MoveRecord> moves, Map<Long, List<String[]>> master) {
        Map<Long, Integer> next = new HashMap<>();
        List<String[]> out = new ArrayList<>(moves.size());
        for (MoveRecord m : moves) {
            List<String[]> accounts = master.getOrDefault(m.partitionId(), List.of());
            String[] found = new String[] {"", "", ""};
            for (int k = next.getOrDefault(m.partitionId(), 0); k < accounts.size(); k++) {
                String[] a = accounts.get(k);
                if (a[3].equals(m.from()) && a[4].equals(m.to())) {
                    found = a;
                    next.put(m.partitionId(), k + 1);
                    break;
                }
            }
            out.add(found);
        }
        return out;
    }

    private static void report(Path out, TpccScale scale, int terminals, Run r, Map<Long, List<String[]>> master,
            List<ConsistencyViolation> afterLoad, List<ConsistencyViolation> afterRun) throws IOException {
        List<String[]> accountOf = accounts(r.moves(), master);
        StringBuilder csv = new StringBuilder("partition,warehouse,mode,from,to,request_to_serving_ms,master_unavailable_ms,"
                + "probe_max_ms,probe_errors,error,master_breakdown\n");
        List<Long> liveUnavailable = new ArrayList<>();
        List<Long> liveProbe = new ArrayList<>();
        List<Long> coordinatedProbe = new ArrayList<>();
        List<Long> coordinatedDuration = new ArrayList<>();
        List<Long> liveDuration = new ArrayList<>();
        long probeErrorsMoving = 0;
        long movesFailed = 0;
        for (int i = 0; i < r.moves().size(); i++) {
            MoveRecord m = r.moves().get(i);
            String[] account = accountOf.get(i);
            String unavailable = account[0];
            probeErrorsMoving += m.probeErrors();
            if (m.error() != null) {
                movesFailed++;
            } else if (m.live()) {
                liveProbe.add(m.probeMaxMs());
                liveDuration.add(m.requestToServingMs());
                if (!unavailable.isEmpty()) {
                    liveUnavailable.add(Long.parseLong(unavailable));
                }
            } else {
                coordinatedProbe.add(m.probeMaxMs());
                coordinatedDuration.add(m.requestToServingMs());
                unavailable = Long.toString(m.requestToServingMs());
            }
            csv.append(String.format(Locale.ROOT, "%d,%d,%s,%s,%s,%d,%s,%d,%d,%s,\"%s\"%n", m.partitionId(), m.warehouse(),
                    m.live() ? "live" : "coordinated", m.from(), m.to(), m.requestToServingMs(), unavailable, m.probeMaxMs(),
                    m.probeErrors(), m.error() == null ? "" : m.error().replace(',', ';'), account[1].replace('"', '\'')));
        }
        Files.writeString(out.resolve("livemove-moves.csv"), csv.toString());
        StringBuilder timeline = new StringBuilder("t_s,txn,failed,p50_ms,p99_ms,probe_max_ms,moving,moved_warehouse,"
                + "moved_txn,moved_p50_ms,moved_p99_ms,rest_txn,rest_p50_ms,rest_p99_ms\n");
        List<Double> restSteadyP99 = new ArrayList<>();
        List<Double> restMovingP99 = new ArrayList<>();
        List<Double> movedP99 = new ArrayList<>();
        List<Double> restSteadyTxnPerWarehouse = new ArrayList<>();
        List<Double> restMovingTxnPerWarehouse = new ArrayList<>();
        List<Double> movedTxn = new ArrayList<>();
        int warehouses = scale.warehouses();
        List<Double> steadyP99 = new ArrayList<>();
        List<Double> movingP99 = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Second> all = r.seconds();
        for (int i = 0; i < all.size(); i++) {
            Second s = all.get(i);
            timeline.append(String.format(Locale.ROOT, "%.1f,%d,%d,%.2f,%.2f,%.2f,%s,%d,%d,%.2f,%.2f,%d,%.2f,%.2f%n", s.t(),
                    s.txn(), s.failed(), s.p50Ms(), s.p99Ms(), s.probeMaxMs(), s.moving(), s.movedWarehouse(), s.moved().txn(),
                    s.moved().p50Ms(), s.moved().p99Ms(), s.rest().txn(), s.rest().p50Ms(), s.rest().p99Ms()));
            if (s.movedWarehouse() != 0) {
                restMovingP99.add(s.rest().p99Ms());
                restMovingTxnPerWarehouse.add(s.rest().txn() / (double) (warehouses - 1));
                movedP99.add(s.moved().p99Ms());
                movedTxn.add((double) s.moved().txn());
            } else if (!s.moving()) {
                restSteadyP99.add(s.rest().p99Ms());
                restSteadyTxnPerWarehouse.add(s.rest().txn() / (double) warehouses);
            }
            (s.moving() ? movingP99 : steadyP99).add(s.p99Ms());
            if (s.moving()) {
                // Against the seconds without a move around it: the load drifts over a run (JIT, caches).
                List<Double> around = new ArrayList<>();
                for (int j = Math.max(0, i - 3); j <= Math.min(all.size() - 1, i + 3); j++) {
                    if (!all.get(j).moving()) {
                        around.add(all.get(j).p99Ms());
                    }
                }
                double base = medianValue(around);
                if (base > 0) {
                    ratios.add(s.p99Ms() / base);
                }
            }
        }
        double localRatio = medianValue(ratios);
        Files.writeString(out.resolve("livemove-timeline.csv"), timeline.toString());
        plot(out.resolve("livemove.png"), r.seconds());

        double tpccSteady = medianValue(steadyP99);
        double tpccMoving = medianValue(movingP99);
        double probeSteady = r.probeSteady().getValueAtPercentile(99) / 1000.0;
        double probeMoving = r.probeMoving().getValueAtPercentile(99) / 1000.0;
        String summary = String.format(Locale.ROOT, "TPC-C under moves: tpmC %,.0f, %,.1f txn/s, %d failed transactions %s;"
                        + " consistency after load %s, after run %s%n"
                        + "live moves: %d, request-to-serving median %s ms (max %s); unavailable (master: origin pause to"
                        + " serving) median %s ms, max %s ms; slowest client probe on the moving partition median %s ms,"
                        + " max %s ms%n"
                        + "coordinated moves: %d, request-to-serving (= unavailable) median %s ms (max %s); slowest probe"
                        + " median %s ms, max %s ms%n"
                        + "client-visible failures: %d probe errors, %d of them during moves; moves that failed: %d (the"
                        + " CSV's error column says why); p99 latency: TPC-C per-second p99"
                        + " (median over seconds) %.1f ms steady vs %.1f ms in seconds with a move (%+.0f%%; against the"
                        + " seconds without a move within 3 s of each: median %+.0f%%); probes p99 %.1f ms steady vs %.1f ms"
                        + " on a moving partition%n"
                        + "in seconds with a move, by home warehouse (medians over seconds): the moved warehouse %.0f txn/s,"
                        + " p99 %.1f ms; each other warehouse %.0f txn/s, p99 of the others %.1f ms; in steady seconds each"
                        + " warehouse %.0f txn/s, p99 %.1f ms%n"
                        + "catalog reads during the run: the terminals' client %d, the probes' %d%n"
                        + "machine load average before %s, after %s%n",
                r.tpcc().tpmC(), r.tpcc().transactionsPerSecond(), r.tpcc().failed(), r.tpcc().failuresByReason(),
                verdict(afterLoad), verdict(afterRun),
                liveDuration.size(), median(liveDuration), max(liveDuration), median(liveUnavailable), max(liveUnavailable),
                median(liveProbe), max(liveProbe), coordinatedDuration.size(), median(coordinatedDuration),
                max(coordinatedDuration), median(coordinatedProbe), max(coordinatedProbe), r.probeErrors(), probeErrorsMoving, movesFailed,
                tpccSteady, tpccMoving, tpccSteady > 0 ? (tpccMoving / tpccSteady - 1) * 100 : 0,
                localRatio > 0 ? (localRatio - 1) * 100 : 0, probeSteady, probeMoving,
                medianValue(movedTxn), medianValue(movedP99), medianValue(restMovingTxnPerWarehouse), medianValue(restMovingP99),
                medianValue(restSteadyTxnPerWarehouse), medianValue(restSteadyP99),
                r.terminalCatalogReads(), r.probeCatalogReads(), r.loadBefore(), r.loadAfter());
        System.out.print(summary);
        String json = String.format(Locale.ROOT, "{\"scale\": \"%s\", \"terminals_per_warehouse\": %d,"
                        + " \"offered_txn_per_s\": %.1f, \"tpmC\": %.1f,"
                        + " \"txn_per_s\": %.2f, \"failed_transactions\": %d, \"probe_errors\": %d,"
                        + " \"moves_failed\": %d, \"live_moves\": %d, \"live_unavailable_ms_median\": %s, \"live_unavailable_ms_max\": %s,"
                        + " \"live_probe_max_ms_median\": %s, \"coordinated_moves\": %d, \"coordinated_unavailable_ms_median\": %s,"
                        + " \"coordinated_probe_max_ms_median\": %s, \"tpcc_p99_ms_steady\": %.2f, \"tpcc_p99_ms_moving\": %.2f,"
                        + " \"tpcc_p99_moving_vs_nearby_ratio_median\": %.3f, \"probe_p99_ms_steady\": %.2f,"
                        + " \"probe_p99_ms_moving\": %.2f, \"moved_warehouse_txn_per_s_median\": %.1f,"
                        + " \"moved_warehouse_p99_ms_median\": %.2f, \"other_warehouse_txn_per_s_moving_median\": %.1f,"
                        + " \"others_p99_ms_moving_median\": %.2f, \"warehouse_txn_per_s_steady_median\": %.1f,"
                        + " \"warehouses_p99_ms_steady_median\": %.2f,"
                        + " \"terminal_catalog_reads\": %d, \"probe_catalog_reads\": %d,"
                        + " \"consistent_after_load\": %s,"
                        + " \"consistent_after_run\": %s, \"load_average_before\": \"%s\", \"load_average_after\": \"%s\"}%n",
                scale.describe(), terminals, r.offeredTxnPerSecond(), r.tpcc().tpmC(), r.tpcc().transactionsPerSecond(), r.tpcc().failed(),
                r.probeErrors(), movesFailed, liveDuration.size(), median(liveUnavailable), max(liveUnavailable), median(liveProbe),
                coordinatedDuration.size(), median(coordinatedDuration), median(coordinatedProbe), tpccSteady, tpccMoving,
                localRatio, probeSteady, probeMoving, medianValue(movedTxn), medianValue(movedP99),
                medianValue(restMovingTxnPerWarehouse), medianValue(restMovingP99), medianValue(restSteadyTxnPerWarehouse),
                medianValue(restSteadyP99), r.terminalCatalogReads(), r.probeCatalogReads(), afterLoad.isEmpty(), afterRun.isEmpty(), r.loadBefore(), r.loadAfter());
        Files.writeString(out.resolve("livemove.json"), json);
        System.out.println("wrote " + out.resolve("livemove.json") + ", livemove-moves.csv, livemove-timeline.csv, livemove.png");
    }

    private static void plot(Path file, List<Second> seconds) throws IOException {
        int width = 1100;
        int height = 560;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = LinePlot.canvas(image);
        List<Double> txn = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> probe = new ArrayList<>();
        List<Double> moving = new ArrayList<>();
        double maxTxn = 1;
        for (Second s : seconds) {
            maxTxn = Math.max(maxTxn, s.txn());
        }
        for (Second s : seconds) {
            txn.add((double) s.txn());
            p99.add(s.p99Ms());
            probe.add(s.probeMaxMs());
            moving.add(s.moving() ? maxTxn : 0.0);
        }
        int n = seconds.size();
        LinePlot.panel(g, 70, 40, width - 140, 200, n, "TPC-C transactions per second (grey: a move under way)",
                List.of(moving, txn), List.of(new Color(200, 200, 200), new Color(30, 90, 200)), List.of(false, false));
        LinePlot.panel(g, 70, 300, width - 140, 200, n, "latency (ms): TPC-C p99 per second, slowest probe per second",
                List.of(p99, probe), List.of(new Color(200, 60, 40), new Color(40, 150, 60)), List.of(false, false));
        LinePlot.legend(g, 70, 530, List.of("txn/s", "move under way", "TPC-C p99", "slowest probe"),
                List.of(new Color(30, 90, 200), new Color(200, 200, 200), new Color(200, 60, 40), new Color(40, 150, 60)));
        LinePlot.write(g, image, file);
    }

    /** The median as JSON: a whole number, or null for none. */
    private static String median(List<? extends Number> values) {
        return values.isEmpty() ? "null" : String.format(Locale.ROOT, "%.0f",
                medianValue(values.stream().map(Number::doubleValue).toList()));
    }

    private static double medianValue(List<Double> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static String max(List<? extends Number> values) {
        return values.isEmpty() ? "null" : String.format(Locale.ROOT, "%.0f",
                values.stream().mapToDouble(Number::doubleValue).max().orElse(0));
    }

    private static String verdict(List<ConsistencyViolation> violations) {
        return violations.isEmpty() ? "all conditions hold" : violations.size() + " VIOLATIONS " + violations;
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

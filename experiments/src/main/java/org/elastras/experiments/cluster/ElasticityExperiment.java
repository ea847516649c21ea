package org.elastras.experiments.cluster;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OutcomeUnknownException;
import org.elastras.experiments.LinePlot;
import org.elastras.experiments.ResultFiles;
import org.elastras.master.balance.BalanceConfig;
import org.elastras.master.balance.LoadWindowConfig;
import org.elastras.master.balance.ThresholdPolicyConfig;
import org.elastras.master.cluster.ClusterLimits;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.OtmView;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.local.LocalProvisioner;

/**
 * Elasticity like ElasTraS's Figure 7 (issue 8): the load ramps up and down and the master, on its
 * own, adds OTMs (through a {@link LocalProvisioner}: real OTM processes), moves partitions to
 * them, and later drains and removes OTMs. The master runs in this JVM (so the provisioner that
 * owns the OTM processes outlives nothing it should not); the clients are {@link ElasTrasClient}s
 * running read-modify-write transactions on random accounts.
 *
 * <p>Per second: active client threads, committed transactions, latency p50/p99/max, live OTMs,
 * moves finished. Per move: the master's time from close to serving at the destination. At the
 * end every account must hold exactly its acknowledged increments (outcome-unknown ones aside).
 * Writes {@code elasticity.csv}, {@code elasticity.json} and {@code elasticity.png}.
 *
 * <p>The load is paced (open loop): {@value #WORKERS} client threads share a schedule of
 * transaction start times at the phase's rate, so the offered load does not depend on latency.
 * Phases: low rate, high rate, low rate.
 *
 * <p>Arguments (all optional): {@code --out DIR --partitions N --rates LOW,HIGH --phases S1,S2,S3
 * --upper RPS --lower RPS --otms-max N}.
 */
public final class ElasticityExperiment {

    private static final Pattern MOVE_MS = Pattern.compile(" in (\\d+) ms");
    /**
     * A move's unavailability in its MOVE_FINISHED message: a live move's from the origin's pause, a
     * coordinated move's from the close sent to the destination serving (without it, as from
     * masters before session 11, the move's whole time).
     */
    static final Pattern UNAVAILABLE_MS = Pattern.compile("\\((?:live, )?unavailable (\\d+) ms: ");
    private static final int ACCOUNTS_PER_PARTITION = 64;
    private static final int ACCOUNT_SPAN = 1_000;
    private static final int WORKERS = 24;

    private record Second(int t, int rate, long commits, double p50Ms, double p99Ms, double maxMs, int otms,
            long movesFinished, boolean moving) {
    }

    private ElasticityExperiment() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        Path out = Path.of(o.getOrDefault("out", "experiments/results"));
        int partitions = Integer.parseInt(o.getOrDefault("partitions", "8"));
        String[] rates = o.getOrDefault("rates", "80,450").split(",");
        int low = Integer.parseInt(rates[0].trim());
        int high = Integer.parseInt(rates[1].trim());
        String[] phases = o.getOrDefault("phases", "20,60,60").split(",");
        double upper = Double.parseDouble(o.getOrDefault("upper", "250"));
        double lower = Double.parseDouble(o.getOrDefault("lower", "150"));
        int otmsMax = Integer.parseInt(o.getOrDefault("otms-max", "3"));
        // Live moves are the master's default; --coordinated makes every move a coordinated one.
        boolean coordinated = Boolean.parseBoolean(o.getOrDefault("coordinated", "false"));
        System.setProperty("java.awt.headless", "true");

        Path temp = Files.createTempDirectory("elasticity");
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 500, 0);
        BalanceConfig balance = new BalanceConfig(1_000, new LoadWindowConfig(10_000, 2_000, 1_000_000),
                new ThresholdPolicyConfig(upper, lower, 15_000, 2, 1, otmsMax));
        List<Second> seconds = new ArrayList<>();
        List<Long> moveMs = new ArrayList<>();
        List<Long> unavailableMs = new ArrayList<>();
        Map<Integer, LongAdder> acknowledged = new ConcurrentHashMap<>();
        Map<Integer, LongAdder> unknown = new ConcurrentHashMap<>();
        List<String> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        long[] checked = new long[2];
        try (TestingServer zk = new TestingServer(spec, true);
                LocalProvisioner provisioner = new LocalProvisioner(System.getProperty("java.class.path"),
                        zk.getConnectString(), temp.resolve("dfs").toUri(), 384, temp.resolve("logs"), "otm-", 1, 4)) {
            String first = provisioner.addOtm().get(120, TimeUnit.SECONDS);
            System.out.println("started " + first);
            try (Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()).withBalance(balance)
                    .withLimits(ClusterLimits.DEFAULT.withLiveMoves(!coordinated)));
                    ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
                master.provisionWith(provisioner);
                await(master::active, 60);
                List<List<Object>> boundaries = new ArrayList<>();
                for (int p = 1; p < partitions; p++) {
                    boundaries.add(List.of(p * ACCOUNT_SPAN));
                }
                master.createDatabase(DatabaseSchema.tree("ELASTIC")
                        .root("ACCOUNT", t -> t.column("A_ID", ColumnType.INT).column("TOTAL", ColumnType.BIGINT).key("A_ID"))
                        .build(), boundaries);
                await(() -> master.partitions().stream().allMatch(v -> v.state() == PartitionState.SERVING)
                        && master.partitions().size() == partitions + 2, 120);
                long eventsFrom = master.events().lastSequence();

                AtomicInteger active = new AtomicInteger(low);
                AtomicLong nextStart = new AtomicLong(System.nanoTime());
                AtomicLong commits = new AtomicLong();
                Recorder latency = new Recorder(3);
                List<Thread> workers = new ArrayList<>();
                java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
                for (int i = 0; i < WORKERS; i++) {
                    int index = i;
                    Thread w = new Thread(() -> work(client, index, active, nextStart, stop, partitions, commits, latency,
                            acknowledged, unknown, errors), "client-" + i);
                    w.setDaemon(true);
                    w.start();
                    workers.add(w);
                }
                int[] schedule = {low, high, low};
                int t = 0;
                Histogram interval = null;
                long lastCommits = 0;
                long lastMovesFinished = master.movesFinished();
                for (int phase = 0; phase < 3; phase++) {
                    active.set(schedule[phase]);
                    int length = Integer.parseInt(phases[phase].trim());
                    for (int s = 0; s < length; s++) {
                        Thread.sleep(1_000);
                        interval = latency.getIntervalHistogram(interval);
                        long c = commits.get();
                        int otms = (int) master.otms().stream().filter(OtmView::live).count();
                        // A second "with a move": one ended in it or is under way at its end (a move
                        // takes a fraction of a second, so sampling only the second's end misses most).
                        long movesFinished = master.movesFinished();
                        boolean moving = movesFinished > lastMovesFinished || !master.moves().isEmpty();
                        Second row = new Second(++t, schedule[phase], c - lastCommits,
                                interval.getValueAtPercentile(50) / 1_000.0, interval.getValueAtPercentile(99) / 1_000.0,
                                interval.getMaxValue() / 1_000.0, otms, movesFinished, moving);
                        lastCommits = c;
                        lastMovesFinished = movesFinished;
                        seconds.add(row);
                        System.out.printf("t=%3ds rate=%4d txn/s=%5d p50=%6.1fms p99=%7.1fms otms=%d moves=%d%s%n",
                                row.t(), row.rate(), row.commits(), row.p50Ms(), row.p99Ms(), row.otms(),
                                row.movesFinished(), row.moving() ? " (moving)" : "");
                    }
                }
                stop.set(true);
                for (Thread w : workers) {
                    w.join(30_000);
                }
                for (MasterEvents.Event e : master.events().after(eventsFrom, 100_000)) {
                    if (e.kind() == MasterEvents.Kind.MOVE_FINISHED) {
                        Matcher m = MOVE_MS.matcher(e.message());
                        if (m.find()) {
                            moveMs.add(Long.parseLong(m.group(1)));
                            Matcher unavailable = UNAVAILABLE_MS.matcher(e.message());
                            unavailableMs.add(unavailable.find() ? Long.parseLong(unavailable.group(1)) : Long.parseLong(m.group(1)));
                        }
                    }
                    if (e.kind() != MasterEvents.Kind.PARTITION_ASSIGNED && e.kind() != MasterEvents.Kind.PARTITION_OPENED) {
                        System.out.println("event " + e.kind() + " " + e.subject() + ": " + e.message());
                    }
                }
                checked = check(client, partitions, acknowledged, unknown);
            }
        } finally {
            keepLogs(temp.resolve("logs"), out.resolve("logs"));
            ResultFiles.deleteTree(temp);
        }
        write(out, o, seconds, moveMs, unavailableMs, errors, checked);
    }

    /**
     * One client thread: takes the next start time of the shared schedule ({@code rate} per
     * second), waits for it and runs one transaction incrementing a random account. A schedule that
     * fell more than a second behind skips ahead instead of bursting.
     */
    private static void work(ElasTrasClient client, int index, AtomicInteger rate, AtomicLong nextStart,
            java.util.concurrent.atomic.AtomicBoolean stop, int partitions, AtomicLong commits, Recorder latency,
            Map<Integer, LongAdder> acknowledged, Map<Integer, LongAdder> unknown, List<String> errors) {
        Random random = new Random(index);
        while (!stop.get()) {
            long interval = 1_000_000_000L / Math.max(1, rate.get());
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
    private static long[] check(ElasTrasClient client, int partitions, Map<Integer, LongAdder> acknowledged,
            Map<Integer, LongAdder> unknown) {
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

    /** Copies the OTM processes' logs next to the results (their opens and closes, timed by part). */
    private static void keepLogs(Path logs, Path kept) {
        if (!Files.isDirectory(logs)) {
            return;
        }
        try (var files = Files.list(logs)) {
            Files.createDirectories(kept);
            for (Path f : (Iterable<Path>) files::iterator) {
                Files.copy(f, kept.resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            System.err.println("could not keep the OTM logs in " + kept + ": " + e);
        }
    }

    private static void write(Path out, Map<String, String> options, List<Second> seconds, List<Long> moveMs,
            List<Long> unavailableMs, List<String> errors, long[] checked) throws Exception {
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder("t_s,offered_txn_per_s,txn_per_s,p50_ms,p99_ms,max_ms,live_otms,moves_finished,moving\n");
        for (Second s : seconds) {
            csv.append(String.format("%d,%d,%d,%.2f,%.2f,%.2f,%d,%d,%b%n", s.t(), s.rate(), s.commits(), s.p50Ms(),
                    s.p99Ms(), s.maxMs(), s.otms(), s.movesFinished(), s.moving()));
        }
        Files.writeString(out.resolve("elasticity.csv"), csv.toString(), StandardCharsets.UTF_8);
        List<Long> sorted = new ArrayList<>(moveMs);
        java.util.Collections.sort(sorted);
        double p99Moving = average(seconds, true);
        double p99Steady = average(seconds, false);
        int otmsMax = seconds.stream().mapToInt(Second::otms).max().orElse(0);
        int otmsEnd = seconds.isEmpty() ? 0 : seconds.get(seconds.size() - 1).otms();
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("options", options.toString());
        summary.put("machine", Runtime.getRuntime().availableProcessors() + " cpus, " + System.getProperty("java.version"));
        summary.put("moves", moveMs.size());
        summary.put("move_ms_median", sorted.isEmpty() ? -1 : sorted.get(sorted.size() / 2));
        summary.put("move_ms_max", sorted.isEmpty() ? -1 : sorted.get(sorted.size() - 1));
        summary.put("move_ms_all", moveMs.toString());
        List<Long> gaps = new ArrayList<>(unavailableMs);
        java.util.Collections.sort(gaps);
        summary.put("unavailable_ms_median", gaps.isEmpty() ? -1 : gaps.get(gaps.size() / 2));
        summary.put("unavailable_ms_max", gaps.isEmpty() ? -1 : gaps.get(gaps.size() - 1));
        summary.put("unavailable_ms_all", unavailableMs.toString());
        summary.put("client_visible_failures", errors.size());
        summary.put("first_failures", errors.subList(0, Math.min(5, errors.size())).toString());
        summary.put("p99_ms_avg_seconds_with_moves", p99Moving);
        summary.put("p99_ms_avg_seconds_without_moves", p99Steady);
        summary.put("otms_max", otmsMax);
        summary.put("otms_at_end", otmsEnd);
        summary.put("acknowledged", checked[0]);
        summary.put("outcome_unknown", checked[1]);
        StringBuilder json = new StringBuilder("{\n");
        int i = 0;
        for (Map.Entry<String, Object> e : summary.entrySet()) {
            Object v = e.getValue();
            String value = v instanceof Number ? (v instanceof Double d ? String.format("%.2f", d) : v.toString())
                    : ResultFiles.jsonString(String.valueOf(v));
            json.append("  ").append(ResultFiles.jsonString(e.getKey())).append(": ").append(value)
                    .append(++i < summary.size() ? ",\n" : "\n");
        }
        json.append("}\n");
        Files.writeString(out.resolve("elasticity.json"), json.toString(), StandardCharsets.UTF_8);
        plot(out.resolve("elasticity.png"), seconds);
        System.out.print(json);
        System.out.println("written to " + out.resolve("elasticity.csv") + ", .json, .png");
    }

    private static double average(List<Second> seconds, boolean moving) {
        return seconds.stream().filter(s -> s.moving() == moving && s.commits() > 0).mapToDouble(Second::p99Ms).average()
                .orElse(-1);
    }

    /** Two panels: throughput and p99 latency (5 s moving average), then live OTMs and client threads. */
    private static void plot(Path file, List<Second> seconds) throws Exception {
        int width = 1000;
        int height = 560;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = LinePlot.canvas(image);
        int n = Math.max(1, seconds.size());
        List<Double> p99 = movingAverage(seconds, Second::p99Ms, 5);
        LinePlot.panel(g, 60, 20, width - 120, 300, n, "txn/s (blue, left) and p99 latency ms, 5 s moving average (red, right)",
                List.of(series(seconds, s -> s.commits()), p99), List.of(Color.BLUE, Color.RED), List.of(false, true));
        LinePlot.panel(g, 60, 360, width - 120, 160, n, "live OTMs (green, left) and offered txn/s (grey, right)",
                List.of(series(seconds, s -> s.otms()), series(seconds, s -> s.rate())),
                List.of(new Color(0, 140, 0), Color.GRAY), List.of(false, true));
        g.setColor(Color.BLACK);
        g.drawString("seconds", width / 2, height - 10);
        LinePlot.write(g, image, file);
    }

    private static List<Double> series(List<Second> seconds, ToDoubleFunction<Second> f) {
        return seconds.stream().map(s -> f.applyAsDouble(s)).toList();
    }

    private static List<Double> movingAverage(List<Second> seconds, ToDoubleFunction<Second> f, int window) {
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < seconds.size(); i++) {
            double sum = 0;
            int count = 0;
            for (int j = Math.max(0, i - window + 1); j <= i; j++) {
                sum += f.applyAsDouble(seconds.get(j));
                count++;
            }
            out.add(sum / count);
        }
        return out;
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private static void await(Check check, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + seconds + " s");
            }
            Thread.sleep(50);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static final List<String> OPTIONS = List.of("out", "partitions", "rates", "phases", "upper", "lower",
            "otms-max", "coordinated");

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + String.join(" ", args)
                        + "; names: " + String.join(", ", OPTIONS));
            }
            String name = args[i].substring(2);
            if (!OPTIONS.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name + "; names: " + String.join(", ", OPTIONS));
            }
            out.put(name, args[++i]);
        }
        return out;
    }
}

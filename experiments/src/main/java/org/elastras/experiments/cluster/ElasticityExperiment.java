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
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.client.ElasTrasClient;
import org.elastras.experiments.LinePlot;
import org.elastras.experiments.ResultFiles;
import org.elastras.experiments.tpcc.ElasticTpccLoad;
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
 * running the load: by default read-modify-write transactions on random accounts ({@link
 * AccountsLoad}: at the end every account must hold exactly its acknowledged increments), or
 * TPC-C with the spec's remote warehouses ({@code --workload tpcc}, {@link ElasticTpccLoad}: at
 * the end every consistency condition must hold), both paced at the phase's offered rate.
 *
 * <p>Per second: committed transactions, latency p50/p99 (and max for the accounts), live OTMs,
 * moves finished. Per move: the master's time from close to serving at the destination, and how
 * long the partition served nowhere. Writes {@code elasticity.csv}, {@code elasticity.json} and
 * {@code elasticity.png}. Phases: low rate, high rate, low rate.
 *
 * <p>Arguments (all optional): {@code --out DIR --partitions N --rates LOW,HIGH --phases S1,S2,S3
 * --upper RPS --lower RPS --otms-max N --coordinated true|false --workload accounts|tpcc
 * --warehouses W --terminals-per-warehouse T} ({@code --partitions} for the accounts, one
 * partition per warehouse for TPC-C).
 */
public final class ElasticityExperiment {

    private static final Pattern MOVE_MS = Pattern.compile(" in (\\d+) ms");
    /**
     * A move's unavailability in its MOVE_FINISHED message: a live move's from the origin's pause, a
     * coordinated move's from the origin's stop of admissions (from the close sent, with masters
     * before session 14) to the destination serving (without it, as from masters before session
     * 11, the move's whole time).
     */
    static final Pattern UNAVAILABLE_MS = Pattern.compile("\\((?:live, )?unavailable (\\d+) ms: ");
    /** TPC-C: seconds at the low rate after the bulk load, before the balancer may add OTMs and the phases begin. */
    private static final int TPCC_SETTLE_SECONDS = 12;

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
        String workload = o.getOrDefault("workload", "accounts");
        if (!workload.equals("accounts") && !workload.equals("tpcc")) {
            throw new IllegalArgumentException("--workload is accounts or tpcc, got " + workload);
        }
        boolean tpcc = workload.equals("tpcc");
        int warehouses = Integer.parseInt(o.getOrDefault("warehouses", "8"));
        int terminalsPerWarehouse = Integer.parseInt(o.getOrDefault("terminals-per-warehouse", "2"));
        System.setProperty("java.awt.headless", "true");

        Path temp = Files.createTempDirectory("elasticity");
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 500, 0);
        BalanceConfig balance = new BalanceConfig(1_000, new LoadWindowConfig(10_000, 2_000, 1_000_000),
                new ThresholdPolicyConfig(upper, lower, 15_000, 2, 1, otmsMax));
        List<Second> seconds = new ArrayList<>();
        List<Long> moveMs = new ArrayList<>();
        List<Long> unavailableMs = new ArrayList<>();
        Map<String, Object> outcome = Map.of();
        try (TestingServer zk = new TestingServer(spec, true);
                LocalProvisioner provisioner = new LocalProvisioner(System.getProperty("java.class.path"),
                        zk.getConnectString(), temp.resolve("dfs").toUri(), 384, temp.resolve("logs"), "otm-", 1, 4)) {
            String first = provisioner.addOtm().get(120, TimeUnit.SECONDS);
            System.out.println("started " + first);
            try (Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri()).withBalance(balance)
                    .withLimits(ClusterLimits.DEFAULT.withLiveMoves(!coordinated)));
                    ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString())) {
                await(master::active, 60);
                int[] schedule = {low, high, low};
                int totalSeconds = 0;
                for (String phase : phases) {
                    totalSeconds += Integer.parseInt(phase.trim());
                }
                ElasticLoad load = tpcc
                        ? ElasticTpccLoad.start(zk.getConnectString(), warehouses, terminalsPerWarehouse, low,
                                TPCC_SETTLE_SECONDS + totalSeconds + 5, System.out)
                        : AccountsLoad.start(master, client, partitions, low);
                if (tpcc) {
                    // The load's window must not hold the bulk load's requests when the balancer starts.
                    Thread.sleep(TPCC_SETTLE_SECONDS * 1_000L);
                    load.interval();
                }
                master.provisionWith(provisioner);
                long eventsFrom = master.events().lastSequence();
                int t = 0;
                long lastMovesFinished = master.movesFinished();
                for (int phase = 0; phase < 3; phase++) {
                    load.offer(schedule[phase]);
                    int length = Integer.parseInt(phases[phase].trim());
                    for (int s = 0; s < length; s++) {
                        Thread.sleep(1_000);
                        ElasticLoad.Interval interval = load.interval();
                        int otms = (int) master.otms().stream().filter(OtmView::live).count();
                        // A second "with a move": one ended in it or is under way at its end (a move
                        // takes a fraction of a second, so sampling only the second's end misses most).
                        long movesFinished = master.movesFinished();
                        boolean moving = movesFinished > lastMovesFinished || !master.moves().isEmpty();
                        Second row = new Second(++t, schedule[phase], interval.commits(), interval.p50Ms(), interval.p99Ms(),
                                interval.maxMs(), otms, movesFinished, moving);
                        lastMovesFinished = movesFinished;
                        seconds.add(row);
                        System.out.printf("t=%3ds rate=%4d txn/s=%5d p50=%6.1fms p99=%7.1fms otms=%d moves=%d%s%n",
                                row.t(), row.rate(), row.commits(), row.p50Ms(), row.p99Ms(), row.otms(),
                                row.movesFinished(), row.moving() ? " (moving)" : "");
                    }
                }
                outcome = load.finish();
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
                load.close();
            }
        } finally {
            keepLogs(temp.resolve("logs"), out.resolve("logs"));
            ResultFiles.deleteTree(temp);
        }
        write(out, o, seconds, moveMs, unavailableMs, outcome);
    }

    /** Copies the OTM processes' logs next to the results (their opens and closes, timed by part). */
    private static void keepLogs(Path logs, Path kept) {
        try {
            ResultFiles.copyLogs(logs, kept);
        } catch (IOException e) {
            System.err.println("could not keep the OTM logs in " + kept + ": " + e);
        }
    }

    private static void write(Path out, Map<String, String> options, List<Second> seconds, List<Long> moveMs,
            List<Long> unavailableMs, Map<String, Object> outcome) throws Exception {
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
        summary.putAll(outcome);
        summary.put("p99_ms_avg_seconds_with_moves", p99Moving);
        summary.put("p99_ms_avg_seconds_without_moves", p99Steady);
        summary.put("otms_max", otmsMax);
        summary.put("otms_at_end", otmsEnd);
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

    interface Check {
        boolean ok() throws Exception;
    }

    /** Polls {@code check} until it holds; throws after {@code seconds}. */
    static void await(Check check, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!check.ok()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + seconds + " s");
            }
            Thread.sleep(50);
        }
    }

    private static final List<String> OPTIONS = List.of("out", "partitions", "rates", "phases", "upper", "lower",
            "otms-max", "coordinated", "workload", "warehouses", "terminals-per-warehouse");

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

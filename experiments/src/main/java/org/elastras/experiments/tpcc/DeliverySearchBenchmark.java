package org.elastras.experiments.tpcc;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.elastras.experiments.ResultFiles;

/**
 * What Delivery's search for each district's oldest new order costs, with the hint of where the
 * process's last Delivery found it and without (the search from O_ID 1 that every Delivery made
 * before session 22), in one run on one database: an in-process OTM (no network, so the
 * procedure's own work shows) loaded with spec-sized warehouses, one terminal running Deliveries
 * back to back, the two kinds alternating so both see the same database as it drains.
 *
 * <p>Usage: {@code DeliverySearchBenchmark [--warehouses W] [--deliveries N] [--out DIR]} (defaults
 * 1, 300 of each kind, {@code experiments/results/delivery-search}); writes {@code
 * delivery-search.json}.
 */
public final class DeliverySearchBenchmark {

    private DeliverySearchBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int warehouses = 1;
        int deliveries = 300;
        Path out = Path.of("experiments/results/delivery-search");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--warehouses" -> warehouses = Integer.parseInt(args[++i]);
                case "--deliveries" -> deliveries = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + "; usage: DeliverySearchBenchmark [--warehouses W] [--deliveries N] [--out DIR]");
            }
        }
        TpccScale scale = TpccScale.spec(warehouses);
        // Each pair delivers two orders a district; a spec district starts with 900 undelivered.
        if (deliveries < 10 || 2 * deliveries > scale.newOrdersPerDistrict()) {
            throw new IllegalArgumentException("--deliveries must be in [10, " + scale.newOrdersPerDistrict() / 2 + "], got "
                    + deliveries);
        }
        Path scratch = Files.createTempDirectory("delivery-search");
        Histogram hinted = new Histogram(60_000_000L, 3);
        Histogram fromOne = new Histogram(60_000_000L, 3);
        try (TpccTarget target = OtmTpccTarget.start(scratch, warehouses, 1, org.elastras.client.protocol.Isolation.SERIALIZABLE)) {
            long loadMicros = 1_700_000_000_000_000L;
            TpccLoader.Report load = new TpccLoader(new TpccDataGenerator(scale, 22, loadMicros), 2).load(target, (rows, of) -> { });
            System.out.printf(Locale.ROOT, "loaded %,d rows (%d warehouses, spec cardinalities) in %.1f s%n", load.rows(), warehouses,
                    load.seconds());
            try (TpccTarget.Session s = target.openSession()) {
                long clock = loadMicros;
                for (int i = 0; i < 2 * deliveries + 40; i++) {
                    boolean measured = i >= 40; // the first 40 warm the code up
                    boolean useHint = i % 2 == 0;
                    if (!useHint) {
                        TpccProcedures.forgetOldestNewOrderHints();
                    }
                    long began = System.nanoTime();
                    TpccTarget.DeliveryResult r = s.delivery(new TpccInputs.Delivery(1 + i % warehouses, 1 + i % 10, clock += 1_000));
                    long micros = (System.nanoTime() - began) / 1_000;
                    if (r.skippedDistricts() != 0) {
                        throw new IllegalStateException("a district ran out of new orders; ask for fewer deliveries");
                    }
                    if (measured) {
                        (useHint ? hinted : fromOne).recordValue(micros);
                    }
                }
            }
            if (!target.checkConsistency(warehouses, false, 0).isEmpty()) {
                throw new IllegalStateException("the database is not consistent after the run");
            }
        } finally {
            ResultFiles.deleteTree(scratch);
        }
        String line = String.format(Locale.ROOT, "Delivery (10 districts) with the hint: mean %.2f ms, p50 %.2f, p99 %.2f; searching from"
                + " O_ID 1: mean %.2f ms, p50 %.2f, p99 %.2f (%d of each)", hinted.getMean() / 1e3,
                hinted.getValueAtPercentile(50) / 1e3, hinted.getValueAtPercentile(99) / 1e3, fromOne.getMean() / 1e3,
                fromOne.getValueAtPercentile(50) / 1e3, fromOne.getValueAtPercentile(99) / 1e3, hinted.getTotalCount());
        System.out.println(line);
        Files.createDirectories(out);
        try (PrintWriter json = new PrintWriter(Files.newBufferedWriter(out.resolve("delivery-search.json"), StandardCharsets.UTF_8))) {
            json.printf(Locale.ROOT, "{\"warehouses\": %d, \"deliveries_each\": %d, \"hinted_mean_micros\": %.0f, \"hinted_p50_micros\": %d,"
                    + " \"hinted_p99_micros\": %d, \"from_one_mean_micros\": %.0f, \"from_one_p50_micros\": %d, \"from_one_p99_micros\": %d}%n",
                    warehouses, hinted.getTotalCount(), hinted.getMean(), hinted.getValueAtPercentile(50), hinted.getValueAtPercentile(99),
                    fromOne.getMean(), fromOne.getValueAtPercentile(50), fromOne.getValueAtPercentile(99));
        }
        System.out.println("wrote " + out.resolve("delivery-search.json"));
    }
}

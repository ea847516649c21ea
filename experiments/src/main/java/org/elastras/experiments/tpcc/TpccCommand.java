package org.elastras.experiments.tpcc;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code bin/elastras tpcc --warehouses W --terminals T --duration D [--baseline derby|postgres]}:
 * TPC-C on a local ElasTraS cluster (ZooKeeper, a master and OTM processes, the routing client:
 * {@link ClusterTpccTarget}) and, with {@code --baseline}, on embedded Derby and/or PostgreSQL
 * (interactive JDBC and PL/pgSQL functions) in the same run, with the same database and
 * terminals. A front for {@link TpccBenchmark} with the options a user starts from; {@code bin/elastras
 * bench tpcc} takes all of them.
 *
 * <p>The database has the spec's cardinalities by default, the 100,000 ITEM rows included (ElasTraS
 * loads them in chunks, {@link OtmTpccTarget#itemRequests}). Exit status: 0 if every consistency check passed, 1 if one
 * failed, 2 for bad arguments.
 */
public final class TpccCommand {

    static final String USAGE = String.join("\n",
            "usage: bin/elastras tpcc [--warehouses W] [--terminals T] [--duration SECONDS] [--baseline derby|postgres|derby,postgres]",
            "  --warehouses W        warehouses (default 2); one partition per warehouse",
            "  --terminals T         terminals in all, a multiple of W (default 10 per warehouse)",
            "  --duration SECONDS    measured seconds per target (default 60), after --warmup seconds (default 15)",
            "  --baseline B          also run Derby (embedded, JDBC) and/or PostgreSQL (JDBC and PL/pgSQL, at --isolation)",
            "  --isolation I         serializable (default) or snapshot: New-Order, Payment and Delivery of ElasTraS and",
            "                        PostgreSQL (REPEATABLE READ); snapshot runs TPC-C serializably too (Fekete et al. 2005)",
            "  --items N             ITEM rows (default 100000, the spec's)",
            "  --customers N         customers per district (default 3000, the spec's)",
            "  --otms N              OTM processes of the cluster (default " + TpccTargets.CLUSTER_OTMS + ")",
            "  --elastras false      only the baselines",
            "  --remote M            remote warehouse accesses: spec (default: 1% of New-Order lines, 15% of Payments),",
            "                        all-local (drawn, then made local), or spec,all-local (each target run once per mode)",
            "  --out DIR             results: tpcc.json, tpcc.csv, tpcc-timeline.csv, tpcc.png (default experiments/results/tpcc)",
            "  --seed N              (default 42)");
    private static final List<String> NAMES = List.of("warehouses", "terminals", "duration", "warmup", "baseline", "items",
            "customers", "otms", "elastras", "out", "seed", "remote", "isolation");

    private TpccCommand() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(USAGE);
            return;
        }
        TpccBenchmark.Options options;
        try {
            options = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("tpcc: " + e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        System.exit(TpccBenchmark.run(options));
    }

    static TpccBenchmark.Options parse(String[] args) {
        Map<String, String> v = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 == args.length || !NAMES.contains(args[i].substring(2))) {
                throw new IllegalArgumentException("expected --name value pairs with names " + NAMES + " at '" + args[i] + "'");
            }
            v.put(args[i].substring(2), args[i + 1]);
        }
        int warehouses = Integer.parseInt(v.getOrDefault("warehouses", "2"));
        int terminals = Integer.parseInt(v.getOrDefault("terminals", Integer.toString(10 * warehouses)));
        if (terminals < warehouses || terminals % warehouses != 0) {
            throw new IllegalArgumentException("--terminals must be a multiple of --warehouses (terminals are bound to a"
                    + " warehouse and a district), got " + terminals + " for " + warehouses + " warehouses");
        }
        String si = switch (v.getOrDefault("isolation", "serializable")) {
            case "serializable" -> "";
            case "snapshot" -> "-si";
            default -> throw new IllegalArgumentException("--isolation takes serializable or snapshot, got " + v.get("isolation"));
        };
        List<String> targets = new ArrayList<>();
        if (Boolean.parseBoolean(v.getOrDefault("elastras", "true"))) {
            targets.add("elastras-cluster" + si);
        }
        for (String b : v.getOrDefault("baseline", "").split(",")) {
            switch (b.trim()) {
                case "" -> { }
                case "derby" -> targets.add("derby");
                case "postgres" -> {
                    targets.add("postgres-jdbc" + si);
                    targets.add("postgres-plpgsql" + si);
                }
                default -> throw new IllegalArgumentException("--baseline takes derby, postgres or derby,postgres, got " + b);
            }
        }
        int otms = Integer.parseInt(v.getOrDefault("otms", Integer.toString(TpccTargets.CLUSTER_OTMS)));
        TpccScale scale = new TpccScale(warehouses, Integer.parseInt(v.getOrDefault("items", "100000")),
                Integer.parseInt(v.getOrDefault("customers", Integer.toString(TpccScale.SPEC_CUSTOMERS_PER_DISTRICT))),
                TpccScale.SPEC_NEW_ORDERS_PER_DISTRICT * Integer.parseInt(v.getOrDefault("customers",
                        Integer.toString(TpccScale.SPEC_CUSTOMERS_PER_DISTRICT))) / TpccScale.SPEC_CUSTOMERS_PER_DISTRICT);
        return new TpccBenchmark.Options(scale, terminals / warehouses, 1, Double.parseDouble(v.getOrDefault("duration", "60")),
                Double.parseDouble(v.getOrDefault("warmup", "15")), Math.min(4, warehouses), targets,
                Long.parseLong(v.getOrDefault("seed", "42")), Path.of(v.getOrDefault("out", "experiments/results/tpcc")), otms,
                TpccBenchmark.remoteModes(v.getOrDefault("remote", RemoteWarehouses.SPEC.optionName())));
    }
}

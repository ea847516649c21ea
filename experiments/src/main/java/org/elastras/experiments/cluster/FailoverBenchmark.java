package org.elastras.experiments.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.experiments.ResultFiles;
import org.elastras.master.MasterMain;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmMain;
import org.elastras.otm.server.OtmNode;

/**
 * Failover times with default settings. ZooKeeper (500 ms tick) and two OTMs run in this process;
 * the victim OTM and two masters are child JVMs. A tree database of N partitions gets a row in each
 * through the routing client (so every victim partition has a log to replay). Then:
 * <ol>
 *   <li>the victim OTM is killed (SIGKILL): time until every partition it served serves elsewhere,
 *       and every row is read back;</li>
 *   <li>while a client thread runs transactions, the active master is killed (SIGKILL): time until
 *       the standby is announced active, and the transactions' errors and slowest latency.</li>
 * </ol>
 * Repeated for each N given.
 *
 * <p>Arguments: [output directory (experiments/results)] [partition counts (10,100)].
 */
public final class FailoverBenchmark {

    private static final Pattern OTM_READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");
    private static final Pattern MASTER_READY = Pattern.compile("ELASTRAS-MASTER READY id=(\\S+) port=(\\d+)");

    private FailoverBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "experiments/results");
        List<Integer> counts = new ArrayList<>();
        for (String n : (args.length > 1 ? args[1] : "10,100").split(",")) {
            counts.add(Integer.parseInt(n.trim()));
        }
        StringBuilder report = new StringBuilder("failover with default settings (OTM heartbeat timeout "
                + MasterConfig.DEFAULT_HEARTBEAT_TIMEOUT_MS + " ms, OTM session " + OtmConfig.DEFAULT_SESSION_TIMEOUT_MS
                + " ms, master session " + MasterConfig.DEFAULT_SESSION_TIMEOUT_MS + " ms)\n");
        for (int n : counts) {
            String line = run(n);
            System.out.println(line);
            report.append(line).append('\n');
        }
        Files.createDirectories(out);
        Path file = out.resolve("failover.txt");
        Files.writeString(file, report.toString(), StandardCharsets.UTF_8);
        System.out.println("written to " + file);
    }

    private static String run(int partitions) throws Exception {
        Path temp = Files.createTempDirectory("failover");
        Path dfs = temp.resolve("dfs");
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 500, 0);
        List<Process> processes = new ArrayList<>();
        List<OtmNode> survivors = new ArrayList<>();
        try (TestingServer zk = new TestingServer(spec, true)) {
            String connect = zk.getConnectString();
            // "otm-a" sorts first: the least-loaded rule gives it every third partition.
            Process victim = start(OtmMain.class.getName(), "otm-a", OTM_READY, temp, "--id", "otm-a", "--zk", connect,
                    "--dfs", dfs.toUri().toString(), "--port", "0");
            processes.add(victim);
            for (String id : List.of("otm-b", "otm-c")) {
                survivors.add(OtmNode.start(new OtmConfig(id, connect, "/elastras", dfs.toUri(), "127.0.0.1", 0,
                        OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
            }
            Map<String, Process> masters = new TreeMap<>();
            for (String id : List.of("master-1", "master-2")) {
                Process m = start(MasterMain.class.getName(), id, MASTER_READY, temp, "--id", id, "--zk", connect,
                        "--dfs", dfs.toUri().toString());
                processes.add(m);
                masters.put(id, m);
            }
            try (ElasTrasClient client = ElasTrasClient.connect(connect)) {
                await(() -> client.admin().activeMasterId() != null, 60);
                List<List<Object>> boundaries = new ArrayList<>();
                for (int k = 1; k < partitions; k++) {
                    boundaries.add(List.of(k * 10));
                }
                client.admin().createDatabase(DatabaseSchema.tree("FAILOVER")
                        .root("R", t -> t.column("ID", ColumnType.INT).column("V", ColumnType.BIGINT).key("ID")).build(),
                        boundaries);
                await(() -> allServingWithout(client, null), 120);
                for (int k = 0; k < partitions; k++) {
                    int id = k * 10;
                    client.runInTransaction("FAILOVER", List.of(id), txn -> {
                        txn.put("R", Map.of("ID", id, "V", 1L));
                        return null;
                    });
                }
                long onVictim = client.admin().partitions("FAILOVER").stream().filter(p -> "otm-a".equals(p.owner())).count();

                long killedAt = System.nanoTime();
                victim.destroyForcibly();
                victim.waitFor(30, TimeUnit.SECONDS);
                await(() -> allServingWithout(client, "otm-a"), 120);
                long otmMs = (System.nanoTime() - killedAt) / 1_000_000;
                for (int k = 0; k < partitions; k++) {
                    int id = k * 10;
                    Object v = client.runInTransaction("FAILOVER", List.of(id), txn -> txn.get("R", List.of(id))
                            .orElseThrow(() -> new IllegalStateException("row " + id + " lost")).get("V"));
                    if (!Long.valueOf(1L).equals(v)) {
                        throw new IllegalStateException("row " + id + " holds " + v);
                    }
                }
                return String.format("%4d partitions, %3d on the killed OTM: serving elsewhere %5d ms after the kill"
                        + " (every row read back) | %s", partitions, onVictim, otmMs, masterFailover(client, masters, partitions));
            }
        } finally {
            processes.forEach(Process::destroyForcibly);
            survivors.forEach(OtmNode::close);
            ResultFiles.deleteTree(temp);
        }
    }

    /** Kills the active master under a client workload; returns the figures. */
    private static String masterFailover(ElasTrasClient client, Map<String, Process> masters, int partitions)
            throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong committed = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong slowestNanos = new AtomicLong();
        Set<Long> ctss = ConcurrentHashMap.newKeySet();
        AtomicLong repeated = new AtomicLong();
        Thread load = new Thread(() -> {
            Random random = new Random(1);
            while (running.get()) {
                int id = random.nextInt(partitions) * 10;
                long started = System.nanoTime();
                try (ClientTransaction txn = client.transaction("FAILOVER", List.of(id))) {
                    long v = (Long) txn.get("R", List.of(id)).orElseThrow().get("V");
                    txn.put("R", Map.of("ID", id, "V", v + 1));
                    if (!ctss.add(txn.commit())) {
                        repeated.incrementAndGet();
                    }
                    committed.incrementAndGet();
                    slowestNanos.accumulateAndGet(System.nanoTime() - started, Math::max);
                } catch (RuntimeException e) {
                    errors.incrementAndGet();
                }
            }
        }, "failover-load");
        load.start();
        Thread.sleep(2_000);
        slowestNanos.set(0);
        String deposed = client.admin().activeMasterId();
        long killedAt = System.nanoTime();
        Process active = masters.get(deposed);
        active.destroyForcibly();
        active.waitFor(30, TimeUnit.SECONDS);
        await(() -> {
            String now = client.admin().activeMasterId();
            return now != null && !now.equals(deposed);
        }, 60);
        long ms = (System.nanoTime() - killedAt) / 1_000_000;
        long committedAtTakeover = committed.get();
        Thread.sleep(3_000);
        running.set(false);
        load.join(60_000);
        if (committed.get() <= committedAtTakeover) {
            throw new IllegalStateException("no transaction committed after the master failover");
        }
        if (repeated.get() > 0) {
            throw new IllegalStateException(repeated.get() + " commit timestamps were handed out twice");
        }
        return String.format("active master killed: standby active %5d ms later; client transactions meanwhile: %d"
                + " committed (all CTSs distinct), %d errors (a conflict or move re-run counts as none), slowest %d ms", ms,
                committed.get(), errors.get(), slowestNanos.get() / 1_000_000);
    }

    private static boolean allServingWithout(ElasTrasClient client, String gone) {
        List<PartitionInfo> all = client.admin().partitions("FAILOVER");
        return !all.isEmpty() && all.stream().allMatch(p -> p.state().equals("SERVING") && !p.owner().equals(gone));
    }

    private static Process start(String mainClass, String id, Pattern readyLine, Path logs, String... args)
            throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectError(logs.resolve(id + ".log").toFile()).start();
        CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    Matcher m = readyLine.matcher(line);
                    if (m.find()) {
                        return Integer.parseInt(m.group(2));
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException(id + " exited before it was ready");
        });
        ready.get(60, TimeUnit.SECONDS);
        return process;
    }

    private interface Condition {
        boolean holds() throws Exception;
    }

    private static void await(Condition condition, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("gave up after " + seconds + " s");
            }
            Thread.sleep(5);
        }
    }
}

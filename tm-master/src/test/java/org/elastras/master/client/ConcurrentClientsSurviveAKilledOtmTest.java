package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.OutcomeUnknownException;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmMain;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three clients with three threads each increment counters on every partition of LEDGER while the
 * OTM process serving some of them is killed with SIGKILL: one thread of each client calls a
 * stored procedure, one an idempotent one, one runs read-modify-write interactive transactions
 * with {@code runInTransaction}. No error reaches the application: the
 * failover shows as latency. Afterwards every counter holds exactly its acknowledged increments,
 * give or take the increments reported as {@link OutcomeUnknownException} (in flight at the kill,
 * counted as "maybe"); the threads that call the idempotent procedure (which records a request id)
 * through {@code callIdempotent} get no unknown outcome at all and their counters are exact.
 */
class ConcurrentClientsSurviveAKilledOtmTest {

    private static final Pattern READY = Pattern.compile("ELASTRAS-OTM READY id=(\\S+) port=(\\d+)");
    private static final int CLIENTS = 3;
    private static final int OPS_BEFORE_KILL_MIN = 10;
    private static final int OPS_AFTER_KILL_MIN = 5;
    private static final long FAILOVER_BOUND_MS = 25_000;

    @TempDir
    Path temp;

    @Test
    void everyClientFinishesWithoutAnErrorAndNoAcknowledgedIncrementIsLostOrDoubled() throws Exception {
        // ZooKeeper's usual 2 s tick, so that the OTMs' 4 s session timeout is granted as asked.
        InstanceSpec spec = new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 2_000, 0);
        Path dfs = temp.resolve("dfs");
        List<OtmNode> survivors = new ArrayList<>();
        List<ElasTrasClient> clients = new ArrayList<>();
        Process victim = null;
        Master master = null;
        try (TestingServer zk = new TestingServer(spec, true)) {
            victim = startOtmProcess("otm-a", zk.getConnectString(), dfs);
            for (String id : List.of("otm-b", "otm-c")) {
                survivors.add(OtmNode.start(new OtmConfig(id, zk.getConnectString(), "/elastras", dfs.toUri(),
                        "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
            }
            master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras", dfs.toUri()));
            ClientTestCluster.awaitActive(master);
            master.createDatabase(LedgerProcedures.schema(), ClientTestCluster.BOUNDARIES);
            ClientTestCluster.awaitAllServing(master, 4);
            Set<Long> onVictim = new TreeSet<>();
            for (PartitionView v : master.partitions()) {
                if ("otm-a".equals(v.record().owner())) {
                    onVictim.add(v.record().partitionId());
                }
            }
            assertFalse(onVictim.isEmpty(), "otm-a serves some partition");

            for (int c = 0; c < CLIENTS; c++) {
                clients.add(ElasTrasClient.connect(zk.getConnectString()));
            }
            IncrementWorkload workload = new IncrementWorkload(clients);
            workload.start();
            workload.awaitOps(OPS_BEFORE_KILL_MIN, false, 20_000);

            long killedAt = System.nanoTime();
            victim.destroyForcibly();
            assertTrue(victim.waitFor(30, TimeUnit.SECONDS));
            workload.mark();
            while (!ClientTestCluster.servedBy(survivors).keySet().containsAll(onVictim)) {
                assertTrue(System.nanoTime() - killedAt < TimeUnit.MILLISECONDS.toNanos(FAILOVER_BOUND_MS),
                        "partitions " + onVictim + " not serving elsewhere within " + FAILOVER_BOUND_MS + " ms");
                Thread.sleep(20);
            }
            long failoverMs = (System.nanoTime() - killedAt) / 1_000_000;
            // Every thread gets some work done after the failover too (its request in flight at the
            // kill may still be backing off when the partitions serve again).
            workload.awaitOps(OPS_AFTER_KILL_MIN, true, 30_000);
            workload.stop();
            assertTrue(workload.latencyMsMax() >= 1_000, "no request waited out the failover (max latency "
                    + workload.latencyMsMax() + " ms): the test did not exercise it");
            IncrementWorkload.Totals totals;
            try (ElasTrasClient reader = ElasTrasClient.connect(zk.getConnectString())) {
                totals = workload.check(reader);
            }
            System.out.printf("KILL: otm-a (partitions %s) killed; served elsewhere after %d ms; %d increments"
                    + " acknowledged, %d reported outcome-unknown, 0 errors; slowest request %d ms; ops %s%n",
                    onVictim, failoverMs, totals.acknowledged(), totals.unknown(), workload.latencyMsMax(), workload.ops());
        } finally {
            clients.forEach(ElasTrasClient::close);
            if (victim != null) {
                victim.destroyForcibly();
            }
            if (master != null) {
                master.close();
            }
            survivors.forEach(OtmNode::close);
        }
    }

    private Process startOtmProcess(String otmId, String zkConnect, Path dfs) throws Exception {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), OtmMain.class.getName(),
                "--id", otmId, "--zk", zkConnect, "--dfs", dfs.toUri().toString(), "--port", "0");
        Path log = temp.resolve(otmId + ".log");
        Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
        CompletableFuture<Integer> ready = CompletableFuture.supplyAsync(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    Matcher m = READY.matcher(line);
                    if (m.find()) {
                        return Integer.parseInt(m.group(2));
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            throw new IllegalStateException("OTM process " + otmId + " exited before it was ready; see " + log);
        });
        try {
            ready.get(60, TimeUnit.SECONDS);
        } catch (Exception e) {
            process.destroyForcibly();
            throw new IllegalStateException("OTM " + otmId + " did not start; see " + log, e);
        }
        return process;
    }
}

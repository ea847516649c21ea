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
    private static final int THREADS_PER_CLIENT = 3;
    private static final int OPS_BEFORE_KILL_MIN = 10;
    private static final int OPS_AFTER_KILL_MIN = 5;
    private static final int[] PLAIN_ACCOUNTS = {50, 150, 250, 350};
    private static final int[] IDEMPOTENT_ACCOUNTS = {60, 160, 260, 360};
    private static final int[] TRANSACTION_ACCOUNTS = {70, 170, 270, 370};

    /** How a worker increments. */
    private enum Kind { CALL, IDEMPOTENT_CALL, TRANSACTION }
    private static final long FAILOVER_BOUND_MS = 25_000;

    @TempDir
    Path temp;

    private final Map<Integer, LongAdder> acknowledged = new ConcurrentHashMap<>();
    private final Map<Integer, LongAdder> maybe = new ConcurrentHashMap<>();
    private final List<String> errors = Collections.synchronizedList(new ArrayList<>());
    private final AtomicLong latencyMsMax = new AtomicLong();
    private volatile boolean stopping;
    private volatile boolean killed;

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

            List<Worker> workers = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                ElasTrasClient client = ElasTrasClient.connect(zk.getConnectString());
                clients.add(client);
                for (int t = 0; t < THREADS_PER_CLIENT; t++) {
                    workers.add(new Worker(client, "c" + c + "t" + t, Kind.values()[t], new Random(31L * c + t)));
                }
            }
            workers.forEach(Worker::start);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (workers.stream().anyMatch(w -> w.ops < OPS_BEFORE_KILL_MIN)) {
                assertTrue(System.nanoTime() < deadline, "workers too slow before the kill");
                assertTrue(errors.isEmpty(), "errors before the kill: " + errors);
                Thread.sleep(5);
            }

            long killedAt = System.nanoTime();
            victim.destroyForcibly();
            assertTrue(victim.waitFor(30, TimeUnit.SECONDS));
            killed = true;
            while (!ClientTestCluster.servedBy(survivors).keySet().containsAll(onVictim)) {
                assertTrue(System.nanoTime() - killedAt < TimeUnit.MILLISECONDS.toNanos(FAILOVER_BOUND_MS),
                        "partitions " + onVictim + " not serving elsewhere within " + FAILOVER_BOUND_MS + " ms");
                Thread.sleep(20);
            }
            long failoverMs = (System.nanoTime() - killedAt) / 1_000_000;
            // Every thread gets some work done after the failover too (its request in flight at the
            // kill may still be backing off when the partitions serve again).
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (workers.stream().anyMatch(w -> w.opsAfterKill < OPS_AFTER_KILL_MIN && w.isAlive())) {
                assertTrue(System.nanoTime() < deadline, "workers stalled after the failover: " + errors);
                Thread.sleep(10);
            }
            stopping = true;
            for (Worker w : workers) {
                w.join(TimeUnit.SECONDS.toMillis(40));
                assertFalse(w.isAlive(), w.getName() + " did not finish");
            }

            assertEquals(List.of(), errors, "errors reached the application");
            assertTrue(latencyMsMax.get() >= 1_000, "no request waited out the failover (max latency "
                    + latencyMsMax.get() + " ms): the test did not exercise it");

            long acked = 0;
            long unknown = 0;
            try (ElasTrasClient reader = ElasTrasClient.connect(zk.getConnectString())) {
                for (int a : concat(PLAIN_ACCOUNTS, TRANSACTION_ACCOUNTS)) {
                    long total = ((Number) reader.call("LEDGER", "total", List.of(a), List.of(a))).longValue();
                    long ack = count(acknowledged, a);
                    long may = count(maybe, a);
                    assertTrue(total >= ack && total <= ack + may, "account " + a + " holds " + total + "; acknowledged "
                            + ack + ", outcome unknown " + may);
                    acked += ack;
                    unknown += may;
                }
                for (int a : IDEMPOTENT_ACCOUNTS) {
                    long total = ((Number) reader.call("LEDGER", "total", List.of(a), List.of(a))).longValue();
                    assertEquals(count(acknowledged, a), total, "idempotent account " + a);
                    assertEquals(0, count(maybe, a), "idempotent calls are re-sent, never reported unknown");
                    acked += total;
                }
            }
            Map<String, Long> ops = new TreeMap<>();
            workers.forEach(w -> ops.put(w.getName(), (long) w.ops));
            System.out.printf("KILL: otm-a (partitions %s) killed; served elsewhere after %d ms; %d increments"
                    + " acknowledged, %d reported outcome-unknown, 0 errors; slowest request %d ms; ops %s%n",
                    onVictim, failoverMs, acked, unknown, latencyMsMax.get(), ops);
        } finally {
            stopping = true;
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

    private static int[] concat(int[] a, int[] b) {
        int[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static long count(Map<Integer, LongAdder> counts, int account) {
        LongAdder n = counts.get(account);
        return n == null ? 0 : n.sum();
    }

    /** One application thread: increments until told to stop, never giving up on its own. */
    private final class Worker extends Thread {
        private final ElasTrasClient client;
        private final Kind kind;
        private final Random random;
        volatile int ops;
        volatile int opsAfterKill;

        Worker(ElasTrasClient client, String name, Kind kind, Random random) {
            super(name);
            setDaemon(true);
            this.client = client;
            this.kind = kind;
            this.random = random;
        }

        @Override
        public void run() {
            int n = 0;
            while (!stopping) {
                int[] accounts = switch (kind) {
                    case CALL -> PLAIN_ACCOUNTS;
                    case IDEMPOTENT_CALL -> IDEMPOTENT_ACCOUNTS;
                    case TRANSACTION -> TRANSACTION_ACCOUNTS;
                };
                int a = accounts[random.nextInt(accounts.length)];
                long started = System.nanoTime();
                try {
                    switch (kind) {
                        case CALL -> client.call("LEDGER", "increment", List.of(a), List.of(a));
                        case IDEMPOTENT_CALL -> client.callIdempotent("LEDGER", "incrementOnce", List.of(a),
                                List.of(a, getName() + "-" + n++));
                        case TRANSACTION -> client.runInTransaction("LEDGER", List.of(a), txn -> {
                            long total = txn.get("ACCOUNT", List.of(a)).map(r -> (Long) r.get("TOTAL")).orElse(0L);
                            txn.put("ACCOUNT", Map.of("A_ID", a, "TOTAL", total + 1));
                            return total + 1;
                        });
                        default -> throw new IllegalStateException();
                    }
                    acknowledged.computeIfAbsent(a, k -> new LongAdder()).increment();
                } catch (OutcomeUnknownException e) {
                    maybe.computeIfAbsent(a, k -> new LongAdder()).increment();
                } catch (RuntimeException e) {
                    errors.add(getName() + ": " + e);
                    return;
                }
                latencyMsMax.accumulateAndGet((System.nanoTime() - started) / 1_000_000, Math::max);
                ops++;
                if (killed) {
                    opsAfterKill++; // Completed after the kill.
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
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

package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stored procedure that reads and writes accounts on other partitions of its OTM: the branches
 * are local transactions, committed with the procedure's own atomically, and a crash of the OTM
 * (its partitions recovered from the DFS by a new one) keeps exactly what was acknowledged.
 */
class ProceduresReachOtherPartitionsOfTheirOtmTest {

    /** Partitions 10 (ids < 100), 11 (100..199), 12 (200..). */
    private static final long[] ACCOUNTS = {1, 2, 101, 102, 201, 202};
    private static final long START = 1_000;
    /** Long enough that a loaded machine does not cost the OTM its lease mid-test. */
    private static final int SESSION_TIMEOUT_MS = 15_000;

    @TempDir
    Path temp;

    private static long partitionOf(long id) {
        return id < 100 ? 10 : id < 200 ? 11 : 12;
    }

    private static void open(OtmClient client) {
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 10, null, List.of(100L)));
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 11, List.of(100L), List.of(200L)));
        client.openPartition(new OpenPartitionRequest(TreeBankProcedures.DATABASE, 12, List.of(200L), null));
    }

    private static Object call(OtmClient client, long partition, String procedure, List<Object> args) {
        return client.call(new CallRequest(TreeBankProcedures.DATABASE, partition, procedure, args, Isolation.SERIALIZABLE, 0))
                .result();
    }

    private static long sum(OtmClient client, long partition) {
        List<Object> ids = new ArrayList<>();
        for (long a : ACCOUNTS) {
            ids.add(a);
        }
        return ((Number) call(client, partition, "sum", ids)).longValue();
    }

    @Test
    void transfersAcrossPartitionsAreAtomicAndSurviveTheOtmsCrash() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            long[] expected = new long[ACCOUNTS.length];
            java.util.Arrays.fill(expected, START);
            OtmNode first = OtmNode.start(new OtmConfig("otm-a", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri(), "127.0.0.1", 0, SESSION_TIMEOUT_MS));
            try (OtmClient client = new OtmClient("127.0.0.1", first.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TreeBankProcedures.schema())));
                open(client);
                for (long a : ACCOUNTS) {
                    call(client, partitionOf(a), "open", List.of(a, START));
                }
                ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
                AtomicBoolean writing = new AtomicBoolean(true);
                AtomicInteger sums = new AtomicInteger();
                Object lock = new Object();
                List<Thread> threads = new ArrayList<>();
                for (int w = 0; w < 3; w++) {
                    int writer = w;
                    threads.add(new Thread(() -> {
                        Random random = new Random(writer);
                        for (int n = 0; n < 40; n++) {
                            int i = random.nextInt(ACCOUNTS.length);
                            int j = (i + 1 + random.nextInt(ACCOUNTS.length - 1)) % ACCOUNTS.length;
                            long amount = 1 + random.nextInt(10);
                            try {
                                call(client, partitionOf(ACCOUNTS[i]), "transfer", List.of(ACCOUNTS[i], ACCOUNTS[j], amount));
                                synchronized (lock) {
                                    expected[i] -= amount;
                                    expected[j] += amount;
                                }
                            } catch (ElasTrasException e) {
                                problems.add("transfer: " + e);
                            }
                        }
                    }));
                }
                Thread reader = new Thread(() -> {
                    int n = 0;
                    while (writing.get()) {
                        try {
                            long s = sum(client, 10 + (n++ % 3));
                            sums.incrementAndGet();
                            if (s != START * ACCOUNTS.length) {
                                problems.add("a sum read " + s);
                            }
                        } catch (ElasTrasException e) {
                            problems.add("sum: " + e);
                        }
                    }
                });
                threads.forEach(Thread::start);
                reader.start();
                for (Thread t : threads) {
                    t.join(120_000);
                }
                writing.set(false);
                reader.join(30_000);
                assertEquals(List.of(), List.copyOf(problems));
                assertTrue(sums.get() > 0);
            } finally {
                first.close(); // no flush: the next OTM recovers every partition from the log
            }
            OtmNode second = OtmNode.start(new OtmConfig("otm-b", zk.getConnectString(), "/elastras",
                    temp.resolve("dfs").toUri(), "127.0.0.1", 0, SESSION_TIMEOUT_MS));
            try (OtmClient client = new OtmClient("127.0.0.1", second.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(TreeBankProcedures.schema())));
                open(client);
                for (int i = 0; i < ACCOUNTS.length; i++) {
                    long balance = ((Number) call(client, partitionOf(ACCOUNTS[i]), "sum", List.of(ACCOUNTS[i]))).longValue();
                    assertEquals(expected[i], balance, "account " + ACCOUNTS[i] + " after recovery");
                }
                assertEquals(START * ACCOUNTS.length, sum(client, 11));
            } finally {
                second.close();
            }
        }
    }
}

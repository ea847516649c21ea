package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Invariant 2 with a real crash: an OTM process is killed with SIGKILL while clients commit
 * two-row transactions; another OTM opens the partition from the DFS and shows every
 * acknowledged transaction, and of every transaction whose outcome the client could not know,
 * either both rows or neither.
 */
class OtmProcessKilledLosesNoAcknowledgedCommitTest {

    @TempDir
    Path temp;

    private enum Outcome { ACKNOWLEDGED, UNKNOWN, FAILED_BEFORE_COMMIT }

    @Test
    void everyAcknowledgedCommitSurvivesAndNoUnacknowledgedOneIsHalfThere() throws Exception {
        Path dfs = temp.resolve("dfs");
        Map<Long, Outcome> outcomes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<Throwable> unexpected = new ConcurrentLinkedQueue<>();
        try (TestingServer zk = new TestingServer(true)) {
            try (OtmProcess victim = OtmProcess.start("otm-a", zk.getConnectString(), dfs, temp.resolve("otm-a.log"));
                    OtmClient admin = new OtmClient("127.0.0.1", victim.port())) {
                admin.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                admin.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                List<Thread> writers = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    long base = (t + 1) * 1_000_000L;
                    writers.add(new Thread(() -> write(victim.port(), base, outcomes, unexpected)));
                }
                writers.forEach(Thread::start);
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (acknowledged(outcomes) < 400 && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                victim.kill9();
                for (Thread w : writers) {
                    w.join(30_000);
                }
            }
            assertTrue(unexpected.isEmpty(), () -> "unexpected client errors: " + unexpected.peek());
            assertTrue(acknowledged(outcomes) >= 400, "enough commits before the kill: " + acknowledged(outcomes));

            try (OtmNode heir = OtmNode.start(new OtmConfig("otm-b", zk.getConnectString(), "/elastras", dfs.toUri(),
                    "127.0.0.1", 0, 4_000)); OtmClient client = new OtmClient("127.0.0.1", heir.port())) {
                client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
                client.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
                Map<Long, Long> rows = readAll(client);
                int unknownCommitted = 0;
                Set<Long> expectedIds = new HashSet<>();
                for (Map.Entry<Long, Outcome> e : outcomes.entrySet()) {
                    long txn = e.getKey();
                    Long first = rows.get(2 * txn);
                    Long second = rows.get(2 * txn + 1);
                    switch (e.getValue()) {
                        case ACKNOWLEDGED -> {
                            assertEquals(txn, first, "acknowledged transaction " + txn + " lost its first row");
                            assertEquals(txn, second, "acknowledged transaction " + txn + " lost its second row");
                            expectedIds.add(2 * txn);
                            expectedIds.add(2 * txn + 1);
                        }
                        case UNKNOWN -> {
                            assertEquals(first == null, second == null, "transaction " + txn + " is half there");
                            if (first != null) {
                                unknownCommitted++;
                                expectedIds.add(2 * txn);
                                expectedIds.add(2 * txn + 1);
                            }
                        }
                        case FAILED_BEFORE_COMMIT -> {
                            assertEquals(null, first, "transaction " + txn + " never committed but its row is there");
                            assertEquals(null, second);
                        }
                    }
                }
                assertEquals(expectedIds, rows.keySet(), "no row that no transaction committed");
                System.out.println("acknowledged=" + acknowledged(outcomes) + " unknown=" + count(outcomes, Outcome.UNKNOWN)
                        + " (committed after all: " + unknownCommitted + ") rows=" + rows.size());
            }
        }
    }

    private static long acknowledged(Map<Long, Outcome> outcomes) {
        return count(outcomes, Outcome.ACKNOWLEDGED);
    }

    private static long count(Map<Long, Outcome> outcomes, Outcome o) {
        return outcomes.values().stream().filter(v -> v == o).count();
    }

    /** Commits two-row transactions until the OTM dies; records what the client knows of each. */
    private static void write(int port, long base, Map<Long, Outcome> outcomes, ConcurrentLinkedQueue<Throwable> unexpected) {
        try (OtmClient c = new OtmClient("127.0.0.1", port)) {
            for (long n = 1; ; n++) {
                long txn = base + n;
                boolean commitSent = false;
                try {
                    long id = c.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId();
                    c.put(new PutRequest(id, "ACCOUNTS", Map.of("ID", 2 * txn, "BALANCE", txn)));
                    c.put(new PutRequest(id, "ACCOUNTS", Map.of("ID", 2 * txn + 1, "BALANCE", txn)));
                    commitSent = true;
                    outcomes.put(txn, Outcome.UNKNOWN);
                    c.commit(new CommitRequest(id));
                    outcomes.put(txn, Outcome.ACKNOWLEDGED);
                } catch (ElasTrasException e) {
                    switch (e.code()) {
                        case UNREACHABLE, OUTCOME_UNKNOWN -> {
                            if (!commitSent) {
                                outcomes.put(txn, Outcome.FAILED_BEFORE_COMMIT);
                            }
                            return;
                        }
                        default -> {
                            unexpected.add(e);
                            return;
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            unexpected.add(e);
        }
    }

    private static Map<Long, Long> readAll(OtmClient client) {
        Map<Long, Long> rows = new HashMap<>();
        long txn = client.begin(new BeginRequest("BANK", 1, Isolation.SNAPSHOT, 0)).txnId();
        List<Object> from = null;
        while (true) {
            ScanResponse page = client.scan(new ScanRequest(txn, "ACCOUNTS", from, null, 5_000));
            long last = -1;
            for (Map<String, Object> row : page.rows()) {
                last = ((Number) row.get("ID")).longValue();
                rows.put(last, ((Number) row.get("BALANCE")).longValue());
            }
            if (!page.more()) {
                return rows;
            }
            from = List.of(last + 1);
        }
    }
}

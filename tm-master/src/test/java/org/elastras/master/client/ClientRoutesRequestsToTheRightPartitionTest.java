package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.PartitionLocation;
import org.elastras.client.Session;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three in-process OTMs, a master and LEDGER in four partitions: procedure calls and interactive
 * transactions addressed by root key land on the partition (and OTM) that covers the key; a
 * session's next transaction on another OTM reads at or after its last commit; bad input is
 * refused with a clear error and changes nothing; the README example runs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientRoutesRequestsToTheRightPartitionTest {

    @TempDir
    static Path temp;

    private ClientTestCluster cluster;
    private ElasTrasClient client;

    @BeforeAll
    void start() throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        client = ElasTrasClient.connect(cluster.connectString());
    }

    @AfterAll
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void callsAndTransactionsLandOnThePartitionThatCoversTheRootKey() {
        Map<Long, OtmNode> served = ClientTestCluster.servedBy(cluster.otms.values());
        assertEquals(6, served.size(), "four LEDGER partitions and the catalog's two serving: " + served.keySet());
        int[] accounts = {0, 99, 100, 101, 199, 200, 299, 300, 301, 5_000};
        for (int a : accounts) {
            PartitionLocation where = client.locate("LEDGER", List.of(a));
            long partition = ClientTestCluster.partitionOf(a);
            assertEquals(partition, where.partitionId(), "account " + a);
            assertEquals(served.get(partition).otmId(), where.otmId(), "account " + a + " owner");
            assertEquals(served.get(partition).port(), where.port());

            assertEquals(1L, number(client.call("LEDGER", "increment", List.of(a), List.of(a))));
            assertEquals(2L, number(client.call("LEDGER", "increment", List.of(a), List.of(a))));
            long written = client.runInTransaction("LEDGER", List.of(a), txn -> {
                assertEquals(partition, txn.location().partitionId());
                long total = (Long) txn.get("ACCOUNT", List.of(a)).orElseThrow().get("TOTAL");
                txn.put("ACCOUNT", Map.of("A_ID", a, "TOTAL", total + 100));
                for (int r = 0; r < 3; r++) {
                    txn.put("RECEIPT", Map.of("A_ID", a, "R_ID", "r" + r, "TOTAL", total + 100));
                }
                return total + 100;
            });
            assertEquals(102L, written);

            // The data is on that partition at that OTM, and on no other partition.
            GetResponse there = ClientTestCluster.readDirect(served.get(partition).port(), partition, "ACCOUNT", List.of(a));
            assertTrue(there.found(), "account " + a + " on partition " + partition);
            assertEquals(102L, ((Number) there.row().get("TOTAL")).longValue());
        }
        // Every partition got exactly its own accounts: a scan of each partition's ACCOUNT table lists them.
        Map<Long, List<Integer>> byPartition = new TreeMap<>();
        for (int a : accounts) {
            byPartition.computeIfAbsent(ClientTestCluster.partitionOf(a), p -> new ArrayList<>()).add(a);
        }
        for (Map.Entry<Long, List<Integer>> e : byPartition.entrySet()) {
            int anyAccount = e.getValue().get(0);
            List<Integer> scanned = client.runInTransaction("LEDGER", List.of(anyAccount), txn ->
                    txn.scan("ACCOUNT", null, null, 100).stream().map(row -> ((Number) row.get("A_ID")).intValue()).toList());
            for (int id : scanned) {
                assertEquals((long) e.getKey(), ClientTestCluster.partitionOf(id), "account " + id + " in partition " + e.getKey());
            }
            List<Integer> mine = new ArrayList<>(scanned);
            mine.retainAll(java.util.Arrays.stream(accounts).boxed().toList());
            assertEquals(e.getValue(), mine, "partition " + e.getKey());
        }
        // Children of a root key are found under it: a prefix scan in the transaction.
        try (ClientTransaction txn = client.transaction("LEDGER", List.of(101))) {
            List<Map<String, Object>> receipts = txn.scan("RECEIPT", List.of(101), List.of(101), 100);
            assertEquals(List.of("r0", "r1", "r2"), receipts.stream().map(r -> r.get("R_ID")).toList());
            assertEquals(102L, txn.get("RECEIPT", List.of(101, "r2")).orElseThrow().get("TOTAL"));
            assertEquals(Optional.empty(), txn.get("RECEIPT", List.of(101, "r9")));
            txn.commit();
        }
    }

    @Test
    void aSessionsNextTransactionOnAnotherOtmReadsAtOrAfterItsLastCommit() {
        PartitionLocation a = client.locate("LEDGER", List.of(10));
        int other = -1;
        for (int candidate : new int[] {110, 210, 310}) {
            if (!client.locate("LEDGER", List.of(candidate)).otmId().equals(a.otmId())) {
                other = candidate;
                break;
            }
        }
        assertNotEquals(-1, other, "some partition is on another OTM");
        PartitionLocation b = client.locate("LEDGER", List.of(other));
        // Push the first OTM's commit timestamps well ahead of the second's.
        Session busy = client.newSession();
        for (int i = 0; i < 30; i++) {
            busy.call("LEDGER", "increment", List.of(11), List.of(11));
        }

        Session session = client.newSession();
        long cts;
        try (ClientTransaction txn = session.transaction("LEDGER", List.of(10))) {
            txn.put("ACCOUNT", Map.of("A_ID", 10, "TOTAL", 7L));
            cts = txn.commit();
        }
        assertTrue(cts > 0);
        assertEquals(cts, session.lastCommitCts());
        long unrelated;
        try (ClientTransaction txn = client.newSession().transaction("LEDGER", List.of(other))) {
            unrelated = txn.snapshotCts();
        }
        try (ClientTransaction txn = session.transaction("LEDGER", List.of(other))) {
            assertEquals(b.otmId(), txn.location().otmId());
            assertTrue(txn.snapshotCts() >= cts, "snapshot " + txn.snapshotCts() + " on " + b.otmId()
                    + " is before the session's commit " + cts + " on " + a.otmId());
            System.out.printf("SESSION: commit at %d on %s; next begin on %s at snapshot %d (a session-less begin"
                    + " there read at %d)%n", cts, a.otmId(), b.otmId(), txn.snapshotCts(), unrelated);
            txn.commit();
        }
        // And a procedure call carries it too: the session reads its own write.
        assertEquals(7L, number(session.call("LEDGER", "total", List.of(10), List.of(10))));
    }

    @Test
    void aCallRunsAtTheIsolationItAsksForSerializableByDefault() {
        assertEquals("SERIALIZABLE", client.call("LEDGER", "isolation", List.of(7), List.of(7)));
        assertEquals("SNAPSHOT", client.call("LEDGER", "isolation", List.of(7), List.of(7), Isolation.SNAPSHOT));
        assertEquals("SERIALIZABLE", client.call("LEDGER", "isolation", List.of(7), List.of(7), Isolation.SERIALIZABLE));
        assertEquals("SNAPSHOT", client.newSession().call("LEDGER", "isolation", List.of(250), List.of(250), Isolation.SNAPSHOT));
        assertThrows(NullPointerException.class, () -> client.call("LEDGER", "isolation", List.of(7), List.of(7), null));
    }

    @Test
    void badInputIsRefusedClearlyAndChangesNothing() {
        Map<Integer, Object> before = totals();

        ElasTrasException unknownDb = assertThrows(ElasTrasException.class,
                () -> client.call("NOSUCHDB", "increment", List.of(1), List.of(1)));
        assertEquals(ErrorCode.UNKNOWN_DATABASE, unknownDb.code());
        assertTrue(unknownDb.getMessage().contains("NOSUCHDB") && unknownDb.getMessage().contains("LEDGER"),
                unknownDb.getMessage());

        ElasTrasException arity = assertThrows(ElasTrasException.class,
                () -> client.call("LEDGER", "increment", List.of(1, 2), List.of(1)));
        assertEquals(ErrorCode.TYPE_MISMATCH, arity.code());
        assertTrue(arity.getMessage().contains("A_ID INT"), arity.getMessage());

        ElasTrasException type = assertThrows(ElasTrasException.class,
                () -> client.transaction("LEDGER", List.of("one")));
        assertEquals(ErrorCode.TYPE_MISMATCH, type.code());

        ElasTrasException procedure = assertThrows(ElasTrasException.class,
                () -> client.call("LEDGER", "nosuchprocedure", List.of(1), List.of(1)));
        assertEquals(ErrorCode.UNKNOWN_PROCEDURE, procedure.code());

        ElasTrasException refused = assertThrows(ElasTrasException.class,
                () -> client.call("LEDGER", "refuse", List.of(1), List.of(1)));
        assertEquals(ErrorCode.PROCEDURE_ABORTED, refused.code());

        try (ClientTransaction txn = client.transaction("LEDGER", List.of(1))) {
            txn.put("ACCOUNT", Map.of("A_ID", 1, "TOTAL", 999L));
            ElasTrasException table = assertThrows(ElasTrasException.class, () -> txn.get("NOSUCHTABLE", List.of(1)));
            assertEquals(ErrorCode.UNKNOWN_TABLE, table.code());
            assertTrue(txn.isOpen(), "bad input leaves the transaction open");
            // Closed without commit: aborted.
        }
        ElasTrasException outsideRoot = assertThrows(ElasTrasException.class, () ->
                client.runInTransaction("LEDGER", List.of(1), txn -> {
                    txn.put("ACCOUNT", Map.of("A_ID", 1, "TOTAL", 998L));
                    throw new ElasTrasException(ErrorCode.MALFORMED_REQUEST, "the application gave up");
                }));
        assertEquals(ErrorCode.MALFORMED_REQUEST, outsideRoot.code());

        assertEquals(before, totals(), "nothing changed");
    }

    @Test
    void theReadmeExampleRuns() {
        ReadmeExample.main(new String[] {cluster.connectString()});
        assertEquals(11L, number(client.call("LEDGER", "total", List.of(42), List.of(42))));
        try (ClientTransaction txn = client.transaction("LEDGER", List.of(42))) {
            assertEquals(11L, txn.get("RECEIPT", List.of(42, "deposit-1")).orElseThrow().get("TOTAL"));
        }
    }

    /** A procedure's whole-number result (the wire carries it in the smallest fitting type). */
    static long number(Object result) {
        return ((Number) result).longValue();
    }

    /** Every account's total, read through the client, for accounts 0 to 3 of each partition. */
    private Map<Integer, Object> totals() {
        Map<Integer, Object> out = new HashMap<>();
        for (int a : new int[] {0, 1, 2, 3, 100, 101, 200, 300}) {
            out.put(a, client.call("LEDGER", "total", List.of(a), List.of(a)));
        }
        assertFalse(out.isEmpty());
        return out;
    }
}

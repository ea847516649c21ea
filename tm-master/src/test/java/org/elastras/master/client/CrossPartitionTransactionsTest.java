package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.TransactionAbortedException;
import org.elastras.client.protocol.AggregateRequest;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Transactions that read and write accounts on several partitions, served by different OTMs, through
 * the routing client: atomic, isolated, and decided by the coordinator's record also when the
 * branches never hear the outcome or the coordinator's OTM goes away.
 */
class CrossPartitionTransactionsTest {

    /** One account per LEDGER partition (split at 100, 200, 300). */
    private static final int[] ACCOUNTS = {10, 110, 210, 310};
    private static final long START = 1_000;

    @TempDir
    Path temp;

    private ClientTestCluster cluster;
    private ElasTrasClient client;

    @BeforeEach
    void start() throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        client = ElasTrasClient.connect(cluster.connectString());
        for (int a : ACCOUNTS) {
            client.runInTransaction("LEDGER", List.of(a), txn -> {
                txn.put("ACCOUNT", Map.of("A_ID", a, "TOTAL", START));
                return null;
            });
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private long total(ClientTransaction txn, int account) {
        return (Long) txn.get("ACCOUNT", List.of(account)).orElseThrow().get("TOTAL");
    }

    private long[] balances() {
        return client.runInTransaction("LEDGER", List.of(ACCOUNTS[0]), txn -> {
            long[] out = new long[ACCOUNTS.length];
            for (int i = 0; i < ACCOUNTS.length; i++) {
                out[i] = total(txn, ACCOUNTS[i]);
            }
            return out;
        });
    }

    /** Moves {@code amount} from one account to another in one transaction begun on the first's partition. */
    private long transfer(ElasTrasClient c, int from, int to, long amount, String receipt) {
        return c.runInTransaction("LEDGER", List.of(from), txn -> {
            txn.put("ACCOUNT", Map.of("A_ID", from, "TOTAL", total(txn, from) - amount));
            txn.put("ACCOUNT", Map.of("A_ID", to, "TOTAL", total(txn, to) + amount));
            txn.put("RECEIPT", Map.of("A_ID", to, "R_ID", receipt, "TOTAL", amount));
            return txn.commit();
        });
    }

    @Test
    void aTransferSpansTwoOtmsAndCommitsOnBoth() {
        assertNotEquals(client.locate("LEDGER", List.of(10)).otmId(), client.locate("LEDGER", List.of(110)).otmId(),
                "the cluster spreads the partitions; this test needs two OTMs");
        long cts = transfer(client, 10, 110, 25, "first");
        assertTrue(cts > 0);
        long[] b = balances();
        assertEquals(START - 25, b[0]);
        assertEquals(START + 25, b[1]);
        // Read on the participant's own partition, as a transaction begun there.
        long receipt = client.runInTransaction("LEDGER", List.of(110), txn ->
                (Long) txn.get("RECEIPT", List.of(110, "first")).orElseThrow().get("TOTAL"));
        assertEquals(25, receipt);
        // A call may carry null arguments (the protocol does): the client used to refuse them.
        assertEquals(START - 25, ((Number) client.call("LEDGER", "total", List.of(10),
                java.util.Arrays.asList(10, null))).longValue());
    }

    @Test
    void aScanGoesToThePartitionHoldingItsBoundsAndOneSpanningPartitionsIsRefused() {
        try (ClientTransaction txn = client.transaction("LEDGER", List.of(10))) {
            List<Map<String, Object>> rows = txn.scan("ACCOUNT", List.of(100), List.of(199), 10);
            assertEquals(List.of(110), rows.stream().map(r -> ((Number) r.get("A_ID")).intValue()).toList(),
                    "partition 4's accounts, read from a transaction begun on partition 3");
            org.elastras.client.protocol.ElasTrasException e = assertThrows(org.elastras.client.protocol.ElasTrasException.class,
                    () -> txn.scan("ACCOUNT", List.of(10), List.of(110), 10));
            assertEquals(ErrorCode.MALFORMED_REQUEST, e.code());
            assertTrue(txn.isOpen(), "bad input leaves the transaction open");
            assertEquals(START, total(txn, 10));
            txn.commit();
        }
    }

    @Test
    void concurrentTransfersKeepTheTotalAndNoReaderSeesHalfOfOne() throws Exception {
        int writers = 3;
        int transfersEach = 30;
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        Thread reader = new Thread(() -> {
            ElasTrasClient own = ElasTrasClient.connect(cluster.connectString());
            try {
                while (writing.get()) {
                    int start = ACCOUNTS[reads.get() % ACCOUNTS.length];
                    long sum = own.runInTransaction("LEDGER", List.of(start), txn -> {
                        long s = 0;
                        for (int a : ACCOUNTS) {
                            s += total(txn, a);
                        }
                        return s;
                    });
                    reads.incrementAndGet();
                    if (sum != START * ACCOUNTS.length) {
                        problems.add("a reader starting at account " + start + " saw a total of " + sum);
                    }
                }
            } catch (RuntimeException e) {
                problems.add("reader: " + e);
            } finally {
                own.close();
            }
        });
        reader.start();
        Transfers transfers = new Transfers(writers, transfersEach, 42, "w", problems,
                (from, to, amount, receipt) -> transfer(client, from, to, amount, receipt));
        transfers.join();
        writing.set(false);
        reader.join(60_000);
        assertEquals(List.of(), List.copyOf(problems));
        AtomicLongArray expected = transfers.expected;
        AtomicInteger committed = transfers.committed;
        assertEquals(writers * transfersEach, committed.get());
        assertTrue(reads.get() > 0, "the reader read");
        long[] b = balances();
        long sum = 0;
        for (int i = 0; i < ACCOUNTS.length; i++) {
            assertEquals(expected.get(i), b[i], "account " + ACCOUNTS[i]);
            sum += b[i];
        }
        assertEquals(START * ACCOUNTS.length, sum);
        int receipts = 0;
        for (int a : ACCOUNTS) {
            receipts += client.runInTransaction("LEDGER", List.of(a), txn ->
                    txn.scan("RECEIPT", List.of(a), List.of(a), 1_000).size());
        }
        assertEquals(committed.get(), receipts, "one receipt per committed transfer, on the receiving partition");
    }

    @Test
    void aRemoteWriteConflictsWithAnotherTransactionsRemoteWriteFirstUpdaterWins() {
        try (ClientTransaction first = client.transaction("LEDGER", List.of(10));
                ClientTransaction second = client.transaction("LEDGER", List.of(210))) {
            first.put("ACCOUNT", Map.of("A_ID", 110, "TOTAL", 1L));
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                    () -> second.put("ACCOUNT", Map.of("A_ID", 110, "TOTAL", 2L)));
            assertEquals(ErrorCode.CONFLICT, e.code());
            assertTrue(e.retryable());
            first.commit();
        }
        assertEquals(1L, balances()[1]);
        assertEquals(START, balances()[2], "the aborted transaction left nothing");
    }

    @Test
    void branchesThatNeverHearTheOutcomeAskTheCoordinatorAndApplyIt() {
        OtmNode coordinator = ownerOf(10);
        coordinator.commitFaults().loseDecisions(true);
        long cts = transfer(client, 10, 110, 40, "lost-outcome");
        // The branch on 110's partition holds the snapshot until it asks (after 2 s) and applies.
        long[] b = balances();
        assertEquals(START - 40, b[0]);
        assertEquals(START + 40, b[1]);
        assertTrue(cts > 0);
    }

    @Test
    void theCoordinatorsOtmStoppedAfterItsDecisionTheBranchesCommitThroughItsPartitionsNextOwner() throws Exception {
        OtmNode coordinator = ownerOf(10);
        assertNotEquals(coordinator, ownerOf(110));
        coordinator.commitFaults().loseDecisions(true);
        transfer(client, 10, 110, 30, "decided");
        coordinator.close(); // no branch heard the outcome; the master reassigns partition 3
        long[] b = balances();
        assertEquals(START - 30, b[0], "the coordinator's part, recovered by its partition's next owner");
        assertEquals(START + 30, b[1], "the branch asked the next owner and committed");
    }

    @Test
    void theCoordinatorsOtmStoppedBeforeItsDecisionNothingCommitsAnywhere() throws Exception {
        OtmNode coordinator = ownerOf(10);
        coordinator.commitFaults().holdBeforeDecision();
        ElasTrasClient other = ElasTrasClient.connect(cluster.connectString());
        ConcurrentLinkedQueue<Throwable> outcome = new ConcurrentLinkedQueue<>();
        Thread committing = new Thread(() -> {
            try (ClientTransaction txn = other.transaction("LEDGER", List.of(10))) {
                txn.put("ACCOUNT", Map.of("A_ID", 10, "TOTAL", 1L));
                txn.put("ACCOUNT", Map.of("A_ID", 110, "TOTAL", 2L));
                txn.commit();
                outcome.add(new AssertionError("the commit succeeded"));
            } catch (Throwable e) {
                outcome.add(e);
            }
        });
        committing.start();
        try {
            // Wait until the branch voted (its prepare record logged) and the coordinator stopped.
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (coordinator.commitFaults().heldBeforeDecision() == 0) {
                assertTrue(System.nanoTime() < deadline, "the coordinator never collected its votes");
                Thread.sleep(10);
            }
            coordinator.close();
        } finally {
            coordinator.commitFaults().releaseBeforeDecision();
        }
        committing.join(60_000);
        other.close();
        Throwable e = outcome.poll();
        assertTrue(e instanceof TransactionAbortedException || e instanceof org.elastras.client.OutcomeUnknownException,
                "the client learnt it did not commit (or could not tell): " + e);
        long[] b = balances();
        assertEquals(START, b[0], "no decision record: the coordinator's part is not there");
        assertEquals(START, b[1], "the branch asked the next owner and dropped its prepared write");
    }

    @Test
    void storedProceduresReachOtherPartitionsOnThisOtmAndOthersAtomically() throws Exception {
        // 10 and 110 are on different OTMs; find a pair on one OTM too, if the cluster placed one.
        Map<String, List<Integer>> byOtm = new java.util.TreeMap<>();
        for (int a : ACCOUNTS) {
            byOtm.computeIfAbsent(client.locate("LEDGER", List.of(a)).otmId(), k -> new ArrayList<>()).add(a);
        }
        int writers = 3;
        int callsEach = 20;
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        Thread reader = new Thread(() -> {
            int n = 0;
            while (writing.get()) {
                int start = ACCOUNTS[n++ % ACCOUNTS.length];
                try {
                    long sum = ((Number) client.call("LEDGER", "sum", List.of(start),
                            java.util.Arrays.stream(ACCOUNTS).boxed().map(a -> (Object) a).toList())).longValue();
                    if (sum != START * ACCOUNTS.length) {
                        problems.add("procedure sum from account " + start + " saw " + sum);
                    }
                } catch (RuntimeException e) {
                    problems.add("sum: " + e);
                }
            }
        });
        reader.start();
        Transfers transfers = new Transfers(writers, callsEach, 7, "p", problems, (from, to, amount, receipt) ->
                client.call("LEDGER", "transfer", List.of(from), List.of(from, to, amount, receipt)));
        transfers.join();
        writing.set(false);
        reader.join(60_000);
        assertEquals(List.of(), List.copyOf(problems));
        AtomicLongArray expected = transfers.expected;
        long[] b = balances();
        for (int i = 0; i < ACCOUNTS.length; i++) {
            assertEquals(expected.get(i), b[i], "account " + ACCOUNTS[i] + " (accounts by OTM: " + byOtm + ")");
        }
        int receipts = 0;
        for (int a : ACCOUNTS) {
            receipts += client.runInTransaction("LEDGER", List.of(a), txn ->
                    txn.scan("RECEIPT", List.of(a), List.of(a), 1_000).size());
        }
        assertEquals(writers * callsEach, receipts);
    }

    @Test
    void aggregatesReadEveryPartitionAtOneSnapshotWhileTransfersRun() throws Exception {
        List<AggregateRequest.Aggregate> select = List.of(new AggregateRequest.Aggregate("COUNT", null),
                new AggregateRequest.Aggregate("SUM", "TOTAL"), new AggregateRequest.Aggregate("MIN", "TOTAL"),
                new AggregateRequest.Aggregate("MAX", "TOTAL"));
        AtomicBoolean writing = new AtomicBoolean(true);
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        Thread writer = new Thread(() -> {
            Random random = new Random(3);
            for (int n = 0; n < 40; n++) {
                int i = random.nextInt(ACCOUNTS.length);
                int j = (i + 1 + random.nextInt(ACCOUNTS.length - 1)) % ACCOUNTS.length;
                try {
                    transfer(client, ACCOUNTS[i], ACCOUNTS[j], 1 + random.nextInt(30), "a" + n);
                } catch (RuntimeException e) {
                    problems.add("transfer: " + e);
                }
            }
            writing.set(false);
        });
        writer.start();
        int aggregates = 0;
        ElasTrasClient reader = ElasTrasClient.connect(cluster.connectString());
        try {
            while (writing.get() || aggregates == 0) {
                ElasTrasClient.AggregateResult r = reader.aggregate("LEDGER", "ACCOUNT", null, null, List.of(), select);
                aggregates++;
                assertEquals(4L, ((Number) r.values().get(0)).longValue());
                assertEquals(0, new java.math.BigDecimal(START * ACCOUNTS.length).compareTo((java.math.BigDecimal) r.values().get(1)),
                        "a sum over every partition at snapshot " + r.snapshotCts() + " was " + r.values().get(1));
                assertEquals(4, r.rowsScanned());
            }
        } finally {
            reader.close();
        }
        writer.join(120_000);
        assertEquals(List.of(), List.copyOf(problems));
        assertTrue(aggregates > 0);
        long[] b = balances();
        ElasTrasClient.AggregateResult after = client.aggregate("LEDGER", "ACCOUNT", null, null, List.of(), select);
        assertEquals(java.util.Arrays.stream(b).min().orElseThrow(), ((Number) after.values().get(2)).longValue());
        assertEquals(java.util.Arrays.stream(b).max().orElseThrow(), ((Number) after.values().get(3)).longValue());
        // A key range and a condition: accounts 110 and 210 (partitions 4 and 5), those above the start.
        ElasTrasClient.AggregateResult some = client.aggregate("LEDGER", "ACCOUNT", List.of(100), List.of(299),
                List.of(new AggregateRequest.Condition("TOTAL", ">", START)), List.of(new AggregateRequest.Aggregate("COUNT", null)));
        long above = (b[1] > START ? 1 : 0) + (b[2] > START ? 1 : 0);
        assertEquals(above, ((Number) some.values().get(0)).longValue());
        assertEquals(2, some.rowsScanned(), "only partitions 4 and 5 were read");
    }

    /** How one transfer is made (a transaction or a procedure call); throws if it did not commit. */
    @FunctionalInterface
    private interface TransferCall {
        void transfer(int from, int to, long amount, String receipt);
    }

    /**
     * Writer threads making random transfers among {@link #ACCOUNTS}, keeping the balances the
     * acknowledged ones add up to and every failure.
     */
    private static final class Transfers {
        final AtomicLongArray expected = new AtomicLongArray(ACCOUNTS.length);
        final AtomicInteger committed = new AtomicInteger();
        final ConcurrentLinkedQueue<String> problems;
        private final List<Thread> threads = new ArrayList<>();

        Transfers(int writers, int transfersEach, long seed, String receiptPrefix, ConcurrentLinkedQueue<String> problems,
                TransferCall call) {
            this.problems = problems;
            for (int i = 0; i < ACCOUNTS.length; i++) {
                expected.set(i, START);
            }
            for (int w = 0; w < writers; w++) {
                int writer = w;
                threads.add(new Thread(() -> {
                    Random random = new Random(seed + writer);
                    for (int n = 0; n < transfersEach; n++) {
                        int i = random.nextInt(ACCOUNTS.length);
                        int j = (i + 1 + random.nextInt(ACCOUNTS.length - 1)) % ACCOUNTS.length;
                        long amount = 1 + random.nextInt(20);
                        try {
                            call.transfer(ACCOUNTS[i], ACCOUNTS[j], amount, receiptPrefix + writer + "-" + n);
                            expected.addAndGet(i, -amount);
                            expected.addAndGet(j, amount);
                            committed.incrementAndGet();
                        } catch (RuntimeException e) {
                            problems.add("transfer " + writer + "-" + n + ": " + e);
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
        }

        void join() throws InterruptedException {
            for (Thread t : threads) {
                t.join(120_000);
            }
        }
    }

    private OtmNode ownerOf(int account) {
        String otm = client.locate("LEDGER", List.of(account)).otmId();
        return cluster.otms.get(otm);
    }
}

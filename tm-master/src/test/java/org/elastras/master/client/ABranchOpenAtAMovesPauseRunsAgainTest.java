package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.MoveFaults;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live move's pause does not wait for a branch of a cross-partition transaction whose
 * coordinator does not come back: past a short grace the branch is aborted, the move goes on, and
 * the coordinator's stored procedure runs again (its branch then begun at the next owner), once,
 * without an error reaching the client. Such a coordinator may be waiting for a transaction whose
 * branch begin the pause itself holds (TPC-C: a Payment turning its W_YTD add into a write waits
 * for the warehouse's other Payments), so waiting for it held the partition for the whole 100 ms
 * grace. Both a coordinator on another OTM (its branch driven over the protocol) and one on the
 * moving partition's own OTM (its branch a local transaction, and its re-run's branch begun through
 * the catalog while the partition pauses). Real ZooKeeper, master and three OTMs over sockets.
 */
class ABranchOpenAtAMovesPauseRunsAgainTest {

    private static final long START = 1_000;
    private static final int HOME_ACCOUNT = 10;
    private static final long MOVE_BOUND_MS = 15_000;

    @TempDir
    Path temp;

    private ClientTestCluster cluster;
    private String gate;

    @AfterEach
    void stop() throws Exception {
        CountDownLatch[] g = gate == null ? null : LedgerProcedures.GATES.remove(gate);
        if (g != null) {
            g[1].countDown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aBranchDrivenFromAnotherOtmIsAbortedAndItsTransactionRunsAgain() throws Exception {
        moveWhileABranchWaits(false);
    }

    @Test
    void aBranchOnTheCoordinatorsOwnOtmIsAbortedAndItsTransactionRunsAgain() throws Exception {
        moveWhileABranchWaits(true);
    }

    /**
     * A branch begun while the pause lasts, by a coordinator on the moving partition's own OTM, is
     * held and sent on to the next owner like any other OTM's (it was refused NOT_OWNER, and the
     * client, told that of its home partition, read the catalog and called again).
     */
    @Test
    void aBranchBegunOnTheOriginDuringThePauseGoesToTheNextOwner() throws Exception {
        Placement p = place(true);
        try (ElasTrasClient client = ElasTrasClient.connect(cluster.connectString())) {
            OtmNode origin = cluster.otms.get(p.origin());
            origin.moveFaults().holdAt(MoveFaults.Step.IN_PAUSE);
            try {
                cluster.master.movePartition(p.moving(), p.destination(), true);
                assertTrue(origin.moveFaults().awaitHeld(MoveFaults.Step.IN_PAUSE, 30_000), "the move reached its pause");
                // The client has read the catalog for its home partition.
                client.call(LedgerProcedures.DATABASE, "total", List.of(HOME_ACCOUNT), List.of(HOME_ACCOUNT));
                long catalogReadsBefore = client.catalogReads();
                CompletableFuture<Object> transfer = CompletableFuture.supplyAsync(() -> client.call(
                        LedgerProcedures.DATABASE, "transfer", List.of(HOME_ACCOUNT), List.of(HOME_ACCOUNT, p.remote(), 1L, "r-2")));
                Thread.sleep(200);
                assertFalse(transfer.isDone(), "the transfer's branch begin is held while the pause lasts: " + transfer);
                origin.moveFaults().release();
                assertEquals(START - 1, ((Number) transfer.get(60, TimeUnit.SECONDS)).longValue());
                assertEquals(catalogReadsBefore, client.catalogReads(), "the client never heard NOT_OWNER for its home partition");
            } finally {
                origin.moveFaults().release();
            }
            awaitServing(p.moving(), p.destination());
            long remoteTotal = client.runInTransaction(LedgerProcedures.DATABASE, List.of(p.remote()),
                    txn -> (Long) txn.get("ACCOUNT", List.of(p.remote())).orElseThrow().get("TOTAL"));
            assertEquals(START + 1, remoteTotal, "the transfer reached the moved account once");
        }
    }

    /** Where the test's accounts are: the remote account's partition, its owner, and where it moves. */
    private record Placement(String home, int remote, long moving, String origin, String destination) {
    }

    /**
     * Starts the cluster, creates the accounts and places the remote account's partition on the
     * home account's OTM or on another, as asked.
     */
    private Placement place(boolean coordinatorOnTheOrigin) throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        cluster.openAccounts(START, HOME_ACCOUNT, 110, 210, 310);
        Map<Long, OtmNode> owners = ClientTestCluster.servedBy(cluster.otms.values());
        String home = otmId(owners.get(ClientTestCluster.partitionOf(HOME_ACCOUNT)));
        int remote = 110;
        long moving = ClientTestCluster.partitionOf(remote);
        String origin = otmId(owners.get(moving));
        if (coordinatorOnTheOrigin != origin.equals(home)) {
            // Put the remote account's partition where the test needs it first.
            String to = coordinatorOnTheOrigin ? home : cluster.otms.keySet().stream()
                    .filter(id -> !id.equals(home)).findFirst().orElseThrow();
            cluster.master.movePartition(moving, to, true);
            awaitServing(moving, to);
            origin = to;
        }
        String from = origin;
        String destination = cluster.otms.keySet().stream().filter(id -> !id.equals(from) && !id.equals(home))
                .findFirst().orElseThrow();
        return new Placement(home, remote, moving, origin, destination);
    }

    private void moveWhileABranchWaits(boolean coordinatorOnTheOrigin) throws Exception {
        Placement p = place(coordinatorOnTheOrigin);
        int remote = p.remote();
        long moving = p.moving();
        String destination = p.destination();
        try (ElasTrasClient client = ElasTrasClient.connect(cluster.connectString())) {

            // The transfer reads both accounts (its branch on the moving partition is open), then
            // waits at the gate until the move is over.
            gate = "gate-" + coordinatorOnTheOrigin;
            CountDownLatch[] g = {new CountDownLatch(1), new CountDownLatch(1)};
            LedgerProcedures.GATES.put(gate, g);
            // The client has read the catalog for its home partition.
            client.call(LedgerProcedures.DATABASE, "total", List.of(HOME_ACCOUNT), List.of(HOME_ACCOUNT));
            long catalogReadsBefore = client.catalogReads();
            CompletableFuture<Object> transfer = CompletableFuture.supplyAsync(() -> client.call(LedgerProcedures.DATABASE,
                    "transferAtGate", List.of(HOME_ACCOUNT), List.of(HOME_ACCOUNT, remote, 1L, "r-1", gate)));
            assertTrue(g[0].await(30, TimeUnit.SECONDS), "the transfer opened its branch and reached the gate");

            long eventsBefore = cluster.master.events().lastSequence();
            cluster.master.movePartition(moving, destination, true);
            awaitServing(moving, destination);
            assertFalse(transfer.isDone(), "the move did not wait for the transfer, which still waits at its gate");
            String finished = cluster.master.events().after(eventsBefore, MasterEvents.CAPACITY_MAX).stream()
                    .filter(e -> e.kind() == MasterEvents.Kind.MOVE_FINISHED && e.subject().equals("partition " + moving))
                    .map(MasterEvents.Event::message).findFirst().orElseThrow();
            assertTrue(finished.contains("1 branches, ") && finished.contains("1 branches to re-run, 0 still open"),
                    "the pause aborted the open branch rather than waiting for it: " + finished);

            // The transfer's attempt learns its branch is gone, runs again (its branch now at the
            // destination) and commits once; the client saw no error.
            g[1].countDown();
            assertEquals(START - 1, ((Number) transfer.get(60, TimeUnit.SECONDS)).longValue());
            assertEquals(catalogReadsBefore, client.catalogReads(), "the coordinator's OTM ran the transfer again itself;"
                    + " the client was not sent to the catalog (its home partition never moved)");
            long[] totals = client.runInTransaction(LedgerProcedures.DATABASE, List.of(HOME_ACCOUNT), txn -> new long[] {
                    (Long) txn.get("ACCOUNT", List.of(HOME_ACCOUNT)).orElseThrow().get("TOTAL"),
                    (Long) txn.get("ACCOUNT", List.of(remote)).orElseThrow().get("TOTAL"),
                    (Long) txn.get("RECEIPT", List.of(remote, "r-1")).orElseThrow().get("TOTAL")});
            assertEquals(START - 1, totals[0]);
            assertEquals(START + 1, totals[1], "the transfer reached the moved account once");
            assertEquals(1, totals[2]);
        }
    }

    private String otmId(OtmNode otm) {
        return cluster.otms.entrySet().stream().filter(e -> e.getValue() == otm).map(Map.Entry::getKey).findFirst()
                .orElseThrow();
    }

    private void awaitServing(long id, String owner) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MOVE_BOUND_MS);
        while (true) {
            PartitionView v = cluster.master.partitions().stream().filter(p -> p.record().partitionId() == id)
                    .findFirst().orElseThrow();
            if (v.state() == PartitionState.SERVING && owner.equals(v.record().owner())) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "partition " + id + " not serving on " + owner + ": " + v);
            Thread.sleep(2);
        }
    }
}

package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterEvents;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master never takes a catalog row it wrote itself for another master's, nor for a missing
 * one, though the owner of the catalog partition holding the row reads at a snapshot that trails
 * the master's newest write of it. META's OTM has a cross-partition commit held after it took its
 * CTS (its coordinator stopped before the decision, as if hung), so that OTM's snapshot stays below
 * every later commit there. Then the master writes a user partition's row in META twice in a row:
 *
 * <ul>
 * <li>two coordinated moves of one partition between the other two OTMs: the master writes both
 *     records, and the second write's compare-and-set must not read the row from before the first;
 * <li>two live moves: the destination writes the first record (a hand-over, whose CTS the master
 *     never learns), the second hand-over's write reads the old row and fails, and the master's own
 *     write after it must take the row it reads, an older version of its own, for a stale one;
 * <li>a database created (its row written into META) and then opened (its row rewritten with the
 *     owner): the open's write must not find the row missing.
 * </ul>
 *
 * <p>On the code before the fix each of them read the older row (or none) and the master stepped
 * down ({@code SupersededException: the catalog row of partition 5 was written by <itself>}, the
 * torture symptom of seeds 92 and 93 in docs/RELIABILITY.md). With the fix the write waits, bounded,
 * and is retried as "catalog unavailable"; once the stuck OTM is stopped and META serves elsewhere,
 * the partition opens, and the master never stepped down. Real ZooKeeper, master and three OTMs
 * over sockets.
 */
class AMasterNeverStepsDownOnItsOwnCatalogRowTest {

    /** Account 210's partition: the one moved twice (its row is in META, on the stuck OTM). */
    private static final int MOVED_ACCOUNT = 210;
    /** How long the second write is watched while META's owner is stuck: past one bounded wait (5 s). */
    private static final long STUCK_WATCH_MS = 7_000;

    @TempDir
    Path temp;

    private ClientTestCluster cluster;

    @AfterEach
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void coordinatedMovesReadTheMastersOwnRecordAtOrAfterItsWrite() throws Exception {
        movesTwiceWhileMetasOwnerLags(false);
    }

    @Test
    void liveMovesTakeAStaleRowOfTheMastersOwnForAnUnavailableCatalog() throws Exception {
        movesTwiceWhileMetasOwnerLags(true);
    }

    @Test
    void aDatabaseCreatedWhileMetasOwnerLagsOpensWithoutItsRowLookingMissing() throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        Master master = cluster.master;
        OtmNode stuck = arrangeTheStuckOtm(master);
        long eventsBefore = master.events().lastSequence();
        String tenant = "LAGGED";
        try (StuckSnapshot held = new StuckSnapshot(stuck)) {
            // Its row goes into META above the stuck snapshot; its open rewrites the row at once.
            long partitionId = master.createTenant(DatabaseSchema.singlePartition(tenant)
                    .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                    .build()).record().partitionId();
            watchWhileStuck(master, partitionId, eventsBefore);

            stuck.close();
            awaitServing(master, partitionId, owner -> !owner.equals(stuck.otmId()), eventsBefore);
        }
        assertNeverSteppedDown(master, eventsBefore);
        try (ElasTrasClient client = ElasTrasClient.connect(cluster.connectString())) {
            client.runInTransaction(tenant, List.of(), txn -> {
                txn.put("ACCOUNTS", Map.of("ID", 1L, "BALANCE", 5L));
                return null;
            });
            Object balance = client.runInTransaction(tenant, List.of(), txn ->
                    txn.get("ACCOUNTS", List.of(1L)).orElseThrow().get("BALANCE"));
            assertEquals(5L, balance);
        }
    }

    private void movesTwiceWhileMetasOwnerLags(boolean live) throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        Master master = cluster.master;
        OtmNode stuck = arrangeTheStuckOtm(master);
        List<String> others = cluster.otms.keySet().stream().filter(id -> !id.equals(stuck.otmId())).toList();
        String first = others.get(0);
        String second = others.get(1);
        long moved = ClientTestCluster.partitionOf(MOVED_ACCOUNT);
        if (!ownerOf(master, moved).equals(first)) {
            moveAndWait(master, moved, first);
        }
        long eventsBefore = master.events().lastSequence();
        try (StuckSnapshot held = new StuckSnapshot(stuck)) {
            // The first move's record lands in META above the stuck snapshot.
            master.movePartition(moved, second, live);
            awaitServing(master, moved, second::equals, eventsBefore);

            // The second move's write reads the row on the stuck OTM: never the one from before the first.
            master.movePartition(moved, first, live);
            watchWhileStuck(master, moved, eventsBefore);

            stuck.close();
            awaitServing(master, moved, first::equals, eventsBefore);
        }
        assertNeverSteppedDown(master, eventsBefore);
    }

    /**
     * Places the partitions: account 10's (the hung transaction's coordinator) on META's OTM, account
     * 110's (its branch) elsewhere. Returns META's OTM, the one to get stuck.
     */
    private OtmNode arrangeTheStuckOtm(Master master) throws Exception {
        String metaOwner = ownerOf(master, CatalogSchemas.FIRST_META_PARTITION_ID);
        String elsewhere = cluster.otms.keySet().stream().filter(id -> !id.equals(metaOwner)).findFirst().orElseThrow();
        if (!ownerOf(master, ClientTestCluster.partitionOf(10)).equals(metaOwner)) {
            moveAndWait(master, ClientTestCluster.partitionOf(10), metaOwner);
        }
        if (ownerOf(master, ClientTestCluster.partitionOf(110)).equals(metaOwner)) {
            moveAndWait(master, ClientTestCluster.partitionOf(110), elsewhere);
        }
        return cluster.otms.get(metaOwner);
    }

    /**
     * An OTM whose snapshot is stuck: a cross-partition transaction coordinated there is held after
     * taking its CTS, before its decision. Closing stops the OTM and lets the coordinator go (it
     * decides nothing).
     */
    private final class StuckSnapshot implements AutoCloseable {
        private final OtmNode otm;
        private final ElasTrasClient client;
        private final Thread hung;

        StuckSnapshot(OtmNode otm) throws Exception {
            this.otm = otm;
            this.client = ElasTrasClient.connect(cluster.connectString());
            // Every catalog commit so far falls below the snapshot the OTM is about to be stuck at:
            // the cluster's snapshot, which the OTM's own is never below, passes every CTS issued yet.
            long issued = cluster.master.issuedUpToCts();
            long caughtUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (otm.globalSnapshot() < issued) {
                assertTrue(System.nanoTime() < caughtUp, "the cluster's snapshot " + otm.globalSnapshot()
                        + " never reached CTS " + issued);
                Thread.sleep(5);
            }
            otm.commitFaults().holdBeforeDecision();
            hung = new Thread(() -> {
                try (ClientTransaction txn = client.transaction(LedgerProcedures.DATABASE, List.of(10))) {
                    txn.put("RECEIPT", Map.of("A_ID", 10, "R_ID", "hung", "TOTAL", 0L));
                    txn.put("RECEIPT", Map.of("A_ID", 110, "R_ID", "hung", "TOTAL", 0L));
                    txn.commit();
                } catch (RuntimeException expected) {
                    // Its coordinator never decides: the commit fails, nothing of it commits.
                }
            });
            hung.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (otm.commitFaults().heldBeforeDecision() == 0) {
                assertTrue(System.nanoTime() < deadline, "the coordinator never took its CTS and stopped");
                Thread.sleep(10);
            }
        }

        @Override
        public void close() throws Exception {
            otm.close();
            otm.commitFaults().releaseBeforeDecision();
            hung.join(60_000);
            client.close();
        }
    }

    /** While META's owner is stuck: the master never steps down, and the partition cannot serve yet. */
    private static void watchWhileStuck(Master master, long partitionId, long eventsBefore) throws Exception {
        long watchUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STUCK_WATCH_MS);
        while (System.nanoTime() < watchUntil) {
            assertNeverSteppedDown(master, eventsBefore);
            Thread.sleep(20);
        }
        PartitionView v = viewOf(master, partitionId);
        assertNotEquals(PartitionState.SERVING, v.state(),
                "its record cannot be written while META's owner trails the master's last write of it: " + v);
    }

    private static void assertNeverSteppedDown(Master master, long afterSequence) {
        for (MasterEvents.Event e : master.events().after(afterSequence, MasterEvents.CAPACITY_MAX)) {
            if (e.kind() == MasterEvents.Kind.STEPPED_DOWN) {
                fail("the master stepped down on a catalog row it wrote itself: " + e.message());
            }
        }
    }

    private static void awaitServing(Master master, long partitionId, Predicate<String> owner, long eventsBefore)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        while (true) {
            assertNeverSteppedDown(master, eventsBefore);
            PartitionView v = master.active() ? viewOf(master, partitionId) : null;
            if (v != null && v.state() == PartitionState.SERVING && owner.test(v.record().owner())) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "partition " + partitionId + " does not serve where expected: " + v);
            Thread.sleep(20);
        }
    }

    private static PartitionView viewOf(Master master, long partitionId) throws Exception {
        return master.partitions().stream().filter(v -> v.record().partitionId() == partitionId).findFirst()
                .orElseThrow(() -> new AssertionError("no partition " + partitionId));
    }

    private static String ownerOf(Master master, long partitionId) throws Exception {
        return viewOf(master, partitionId).record().owner();
    }

    private static void moveAndWait(Master master, long partitionId, String toOtm) throws Exception {
        master.movePartition(partitionId, toOtm);
        awaitServing(master, partitionId, toOtm::equals, master.events().lastSequence());
    }
}

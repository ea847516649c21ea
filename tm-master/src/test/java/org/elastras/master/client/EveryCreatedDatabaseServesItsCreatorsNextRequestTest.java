package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ClientTransaction;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.PartitionState;
import org.elastras.master.cluster.PartitionView;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database created through the master is served to the creating client's very next request,
 * though the ROOT partition's owner reads at a snapshot that trails the create's commit. The first
 * database is created while ROOT's OTM has a cross-partition commit stopped after taking its CTS
 * (the coordinator held before its decision, as if it hung), so that OTM's snapshot stays below
 * every later commit there, the create's ROOT row included: a catalog read begun there without the
 * create's CTS does not see the new database (UNKNOWN_DATABASE at once, on the code before the
 * fix), one begun with it waits until ROOT is served by an OTM whose snapshot has it (here, after
 * the stuck OTM is stopped, its successor). The next databases are created and used in a loop on
 * the remaining OTMs. Every request of the creating client must succeed, with the right rows.
 * Real ZooKeeper, master and three OTMs over sockets.
 */
class EveryCreatedDatabaseServesItsCreatorsNextRequestTest {

    private static final int DATABASES = 6;
    /** How long the stuck OTM lives on after the first create: far longer than a catalog read takes. */
    private static final long STUCK_OTM_STOPS_AFTER_MS = 1_000;

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
    void databasesCreatedInALoopServeTheirFirstTransactionAtOnce() throws Exception {
        cluster = new ClientTestCluster(temp, List.of("otm-1", "otm-2", "otm-3"));
        Master master = cluster.master;
        String rootOwner = ownerOf(master, CatalogSchemas.ROOT_PARTITION_ID);
        // ROOT's OTM gets stuck; the master's writes of META rows (its assignments) must not go there.
        if (ownerOf(master, CatalogSchemas.FIRST_META_PARTITION_ID).equals(rootOwner)) {
            moveAndWait(master, CatalogSchemas.FIRST_META_PARTITION_ID, otherThan(rootOwner));
        }
        // Account 10's partition coordinates on ROOT's OTM; 110's, elsewhere, takes the branch.
        if (!ownerOf(master, ClientTestCluster.partitionOf(10)).equals(rootOwner)) {
            moveAndWait(master, ClientTestCluster.partitionOf(10), rootOwner);
        }
        if (ownerOf(master, ClientTestCluster.partitionOf(110)).equals(rootOwner)) {
            moveAndWait(master, ClientTestCluster.partitionOf(110), otherThan(rootOwner));
        }
        OtmNode stuck = cluster.otms.get(rootOwner);

        try (ElasTrasClient other = ElasTrasClient.connect(cluster.connectString());
                ElasTrasClient client = ElasTrasClient.connect(cluster.connectString())) {
            stuck.commitFaults().holdBeforeDecision();
            Thread hung = new Thread(() -> {
                try (ClientTransaction txn = other.transaction(LedgerProcedures.DATABASE, List.of(10))) {
                    txn.put("RECEIPT", Map.of("A_ID", 10, "R_ID", "hung", "TOTAL", 0L));
                    txn.put("RECEIPT", Map.of("A_ID", 110, "R_ID", "hung", "TOTAL", 0L));
                    txn.commit();
                } catch (RuntimeException expected) {
                    // Its coordinator never decides: the commit fails, nothing of it commits.
                }
            });
            hung.start();
            Thread stopper = null;
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (stuck.commitFaults().heldBeforeDecision() == 0) {
                    assertTrue(System.nanoTime() < deadline, "the coordinator never took its CTS and stopped");
                    Thread.sleep(10);
                }
                List<String> created = new ArrayList<>();
                for (int i = 0; i < DATABASES; i++) {
                    boolean tree = i % 2 == 1;
                    String name = (tree ? "SHOP_" : "TENANT_") + i;
                    if (tree) {
                        List<PartitionInfo> parts = client.admin().createDatabase(treeSchema(name), List.of(List.of(100)));
                        assertEquals(2, parts.size(), name);
                    } else {
                        assertEquals(name, client.admin().createTenant(tenantSchema(name)).database());
                    }
                    created.add(name);
                    if (i == 0) {
                        // The stuck OTM holds the create's ROOT row below its snapshot until it stops.
                        stopper = new Thread(() -> {
                            try {
                                Thread.sleep(STUCK_OTM_STOPS_AFTER_MS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                            stuck.close();
                        });
                        stopper.start();
                    }
                    useAtOnce(client, name, tree, i);
                }
                // Every database is still there, with its rows, for a client that created none of them.
                for (int i = 0; i < created.size(); i++) {
                    String name = created.get(i);
                    boolean tree = name.startsWith("SHOP_");
                    Object seen = other.runInTransaction(name, tree ? List.of(7) : List.of(), txn ->
                            txn.get(tree ? "ACCOUNT" : "ACCOUNTS", List.of(tree ? 7 : 7L)).orElseThrow()
                                    .get(tree ? "TOTAL" : "BALANCE"));
                    assertEquals(1_000L * i + 7, seen, name);
                }
            } finally {
                if (stopper != null) {
                    stopper.join(30_000);
                } else {
                    stuck.close();
                }
                stuck.commitFaults().releaseBeforeDecision();
                hung.join(60_000);
            }
        }
    }

    /** The creating client's first requests on the new database: a write and a read on each partition. */
    private static void useAtOnce(ElasTrasClient client, String name, boolean tree, int n) {
        for (int key : tree ? new int[] {7, 107} : new int[] {7}) {
            long balance = 1_000L * n + key;
            String table = tree ? "ACCOUNT" : "ACCOUNTS";
            List<Object> rootKey = tree ? List.of(key) : List.of();
            client.runInTransaction(name, rootKey, txn -> {
                txn.put(table, tree ? Map.of("A_ID", key, "TOTAL", balance) : Map.of("ID", (long) key, "BALANCE", balance));
                return null;
            });
            Optional<Map<String, Object>> read = client.runInTransaction(name, rootKey, txn ->
                    txn.get(table, List.of(tree ? key : (long) key)));
            assertTrue(read.isPresent(), name + " row " + key);
            assertEquals(balance, read.get().get(tree ? "TOTAL" : "BALANCE"), name + " row " + key);
        }
    }

    private static DatabaseSchema tenantSchema(String name) {
        return DatabaseSchema.singlePartition(name)
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    private static DatabaseSchema treeSchema(String name) {
        return DatabaseSchema.tree(name)
                .root("ACCOUNT", t -> t.column("A_ID", ColumnType.INT).column("TOTAL", ColumnType.BIGINT).key("A_ID"))
                .build();
    }

    private static String ownerOf(Master master, long partitionId) throws Exception {
        for (PartitionView v : master.partitions()) {
            if (v.record().partitionId() == partitionId) {
                return v.record().owner();
            }
        }
        throw new AssertionError("no partition " + partitionId);
    }

    private String otherThan(String otmId) {
        return cluster.otms.keySet().stream().filter(id -> !id.equals(otmId)).findFirst().orElseThrow();
    }

    private static void moveAndWait(Master master, long partitionId, String toOtm) throws Exception {
        assertNotEquals(toOtm, ownerOf(master, partitionId));
        master.movePartition(partitionId, toOtm);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            PartitionView v = master.partitions().stream().filter(p -> p.record().partitionId() == partitionId)
                    .findFirst().orElseThrow();
            if (v.state() == PartitionState.SERVING && toOtm.equals(v.record().owner())) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "partition " + partitionId + " did not move to " + toOtm + ": " + v);
            Thread.sleep(20);
        }
    }
}

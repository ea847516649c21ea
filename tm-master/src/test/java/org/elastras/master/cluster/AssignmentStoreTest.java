package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.protocol.SchemaSpec;
import org.junit.jupiter.api.Test;

/** The partition map in a real ZooKeeper: round trip, unique names, and a deposed master's write refused. */
class AssignmentStoreTest {

    @Test
    void aMasterThatReadAnOlderRecordCannotOverwriteTheNewMastersAssignment() throws Exception {
        try (TestingServer server = new TestingServer(true);
                CuratorFramework zk = CuratorFrameworkFactory.newClient(server.getConnectString(), new RetryOneTime(100))) {
            zk.start();
            ZkPaths paths = new ZkPaths("/elastras");
            AssignmentStore old = new AssignmentStore(zk, paths);
            SchemaSpec shop = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.shop());
            List<PartitionRecord> records = List.of(
                    PartitionRecord.unassigned("SHOP", 1, null, List.of(100)),
                    PartitionRecord.unassigned("SHOP", 2, List.of(100), null));
            old.createDatabase(shop, records);
            assertThrows(IllegalArgumentException.class, () -> old.createDatabase(shop, records));

            AssignmentStore next = new AssignmentStore(zk, paths);
            AssignmentStore.Loaded loaded = next.load();
            assertEquals(shop, loaded.databases().get("SHOP"));
            assertEquals(records, loaded.partitions());
            PartitionRecord moved = records.get(0).assignedTo("otm-b");
            next.write(moved);
            assertThrows(AssignmentStore.SupersededException.class, () -> old.write(records.get(0).assignedTo("otm-a")));
            assertEquals(moved, new AssignmentStore(zk, paths).load().partitions().get(0));
        }
    }
}

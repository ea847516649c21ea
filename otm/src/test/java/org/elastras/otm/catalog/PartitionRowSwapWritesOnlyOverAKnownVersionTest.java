package org.elastras.otm.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.Column;
import org.elastras.client.CatalogRows;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.otm.catalog.PartitionRowSwap.Outcome;
import org.elastras.otm.catalog.PartitionRowSwap.Version;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The catalog's compare-and-set procedure on a real OTM serving ROOT and META: it writes a
 * PARTITIONS row only over a version it is told to accept, says which version stopped it
 * otherwise, and writes nothing for a row that is not there.
 */
class PartitionRowSwapWritesOnlyOverAKnownVersionTest {

    @TempDir
    Path temp;

    private TestingServer zk;
    private OtmNode otm;
    private OtmClient client;

    @BeforeEach
    void start() throws Exception {
        zk = new TestingServer(true);
        otm = OtmNode.start(new OtmConfig("otm-1", zk.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS));
        client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(CatalogSchemas.root())));
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(CatalogSchemas.meta())));
        client.openPartition(new OpenPartitionRequest(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID,
                null, null));
        client.openPartition(new OpenPartitionRequest(CatalogSchemas.META_DATABASE,
                CatalogSchemas.FIRST_META_PARTITION_ID, null, null));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        otm.close();
        zk.close();
    }

    private static MetaRow row(long partitionId, String owner, long epoch) {
        return new MetaRow(new PartitionDescriptor("BANK", new PartitionId(partitionId), KeyRange.ALL, epoch), owner,
                PartitionState.OPEN);
    }

    /** The row's wire values in the PARTITIONS table's column order, as the master sends them. */
    private static List<Object> values(MetaRow row, String writer) {
        Map<String, Object> wire = CatalogRows.toWire(row, "{\"epoch\":" + row.partition().epoch() + "}", writer);
        List<Object> out = new ArrayList<>();
        for (Column c : CatalogSchemas.meta().table(CatalogSchemas.PARTITIONS).columns()) {
            out.add(wire.get(c.name()));
        }
        return out;
    }

    private void insert(String database, long partitionId, MetaRow row, String writer) {
        long txn = client.begin(new BeginRequest(database, partitionId, Isolation.SERIALIZABLE, 0)).txnId();
        client.put(new PutRequest(txn, CatalogSchemas.PARTITIONS, CatalogRows.toWire(row, "{}", writer)));
        client.commit(new CommitRequest(txn));
    }

    private CatalogRows.PartitionRow read(String database, long partitionId, MetaRow row) {
        long txn = client.begin(new BeginRequest(database, partitionId, Isolation.SNAPSHOT, 0)).txnId();
        GetResponse got = client.get(new GetRequest(txn, CatalogSchemas.PARTITIONS, CatalogRows.keyOf(row)));
        client.commit(new CommitRequest(txn));
        return got.found() ? CatalogRows.fromWire(got.row()) : null;
    }

    private PartitionRowSwap.Result swap(String database, long partitionId, List<Version> acceptable, MetaRow row,
            String writer) {
        Object result = client.call(new CallRequest(database, partitionId, PartitionRowSwap.NAME,
                PartitionRowSwap.args(acceptable, values(row, writer)), Isolation.SERIALIZABLE, 0)).result();
        return PartitionRowSwap.Result.fromWire(result);
    }

    @Test
    void theRowChangesOnlyWhenItHoldsAnAcceptedVersion() {
        String meta = CatalogSchemas.META_DATABASE;
        long metaId = CatalogSchemas.FIRST_META_PARTITION_ID;
        insert(meta, metaId, row(7, "otm-1", 1), "master-a/1");

        // Another master's version: refused, the row names who wrote it, nothing changes.
        PartitionRowSwap.Result refused = swap(meta, metaId, List.of(new Version(1, "master-b/2")), row(7, "otm-3", 2),
                "master-b/2");
        assertEquals(Outcome.SUPERSEDED, refused.outcome());
        assertEquals(new Version(1, "master-a/1"), refused.found());
        CatalogRows.PartitionRow unchanged = read(meta, metaId, row(7, "otm-1", 1));
        assertEquals("otm-1", unchanged.row().owner());
        assertEquals(1, unchanged.row().partition().epoch());
        assertEquals("master-a/1", unchanged.writer());

        // The version it holds among others (an attempt whose answer was lost, say): written whole.
        PartitionRowSwap.Result swapped = swap(meta, metaId,
                List.of(new Version(2, "master-a/1"), new Version(1, "master-a/1")), row(7, "otm-2", 2), "master-a/1");
        assertEquals(Outcome.SWAPPED, swapped.outcome());
        assertNull(swapped.found());
        CatalogRows.PartitionRow written = read(meta, metaId, row(7, "otm-2", 2));
        assertEquals("otm-2", written.row().owner());
        assertEquals(2, written.row().partition().epoch());
        assertEquals("master-a/1", written.writer());
        assertEquals("{\"epoch\":2}", written.record());

        // The version it held before is no longer enough.
        assertEquals(Outcome.SUPERSEDED, swap(meta, metaId, List.of(new Version(1, "master-a/1")), row(7, "otm-3", 3),
                "master-a/1").outcome());
        assertEquals("otm-2", read(meta, metaId, row(7, "otm-2", 2)).row().owner());
    }

    @Test
    void aMissingRowIsReportedAndNotCreated() {
        String meta = CatalogSchemas.META_DATABASE;
        long metaId = CatalogSchemas.FIRST_META_PARTITION_ID;
        assertEquals(Outcome.MISSING, swap(meta, metaId, List.of(new Version(1, "master-a/1")), row(9, "otm-1", 2),
                "master-a/1").outcome());
        assertNull(read(meta, metaId, row(9, "otm-1", 2)), "the swap created no row");
    }

    @Test
    void rootRunsTheSameSwapForTheMetaPartitionsRows() {
        String root = CatalogSchemas.ROOT_DATABASE;
        long rootId = CatalogSchemas.ROOT_PARTITION_ID;
        MetaRow metaPartition = new MetaRow(new PartitionDescriptor(CatalogSchemas.META_DATABASE, new PartitionId(2),
                KeyRange.ALL, 4), "otm-1", PartitionState.OPEN);
        insert(root, rootId, metaPartition, "master-a/1");
        MetaRow next = new MetaRow(metaPartition.partition().nextEpoch(), "otm-2", PartitionState.OPEN);
        assertEquals(Outcome.SUPERSEDED, swap(root, rootId, List.of(new Version(3, "master-a/1")), next, "master-a/1")
                .outcome(), "epoch 3 is not the epoch the row holds");
        assertEquals(Outcome.SWAPPED, swap(root, rootId, List.of(new Version(4, "master-a/1")), next, "master-a/1")
                .outcome());
        CatalogRows.PartitionRow written = read(root, rootId, next);
        assertEquals("otm-2", written.row().owner());
        assertEquals(5, written.row().partition().epoch());
    }
}

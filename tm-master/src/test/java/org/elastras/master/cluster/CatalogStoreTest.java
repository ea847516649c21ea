package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.Names;
import org.elastras.client.CatalogRows;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.ClosePartitionRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.PutRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.otm.catalog.PartitionRowSwap;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master's catalog store against a real OTM serving ROOT and META and a real ZooKeeper: the
 * bootstrap, creating databases, reading them back as a new master would, and the conditional
 * writes that stop a deposed master.
 */
class CatalogStoreTest {

    @TempDir
    Path temp;

    private TestingServer zkServer;
    private CuratorFramework zk;
    private OtmNode otm;
    private OtmClient client;
    private final Map<String, SchemaSpec> schemas = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        zkServer = new TestingServer(true);
        zk = CuratorFrameworkFactory.newClient(zkServer.getConnectString(), new RetryOneTime(100));
        zk.start();
        otm = OtmNode.start(new OtmConfig("otm-1", zkServer.getConnectString(), "/elastras", temp.resolve("dfs").toUri(),
                "127.0.0.1", 0, OtmConfig.DEFAULT_SESSION_TIMEOUT_MS));
        client = new OtmClient("127.0.0.1", otm.port());
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(CatalogSchemas.root())));
        client.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(CatalogSchemas.meta())));
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.close();
        }
        if (otm != null) {
            otm.close();
        }
        if (zk != null) {
            zk.close();
        }
        if (zkServer != null) {
            zkServer.close();
        }
    }

    private CatalogStore store(String writer) {
        return new CatalogStore(zk, ZkPaths.defaults(), writer, schemas::get);
    }

    private CatalogStore.Holder root() {
        return new CatalogStore.Holder(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, client);
    }

    private CatalogStore.Holder meta() {
        return new CatalogStore.Holder(CatalogSchemas.META_DATABASE, CatalogSchemas.FIRST_META_PARTITION_ID, client);
    }

    /** What the first master does: ROOT's record in ZooKeeper, ROOT opened, the first META partition in ROOT. */
    private CatalogStore bootstrap(String writer) throws Exception {
        CatalogStore store = store(writer);
        PartitionRecord root = store.loadRootRecord();
        assertNull(root.owner(), "a new cluster's ROOT is unassigned");
        store.write(root.assignedTo("otm-1"), null);
        client.openPartition(new OpenPartitionRequest(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID,
                null, null));
        PartitionRecord meta = store.createFirstMeta(client);
        assertEquals(CatalogSchemas.FIRST_META_PARTITION_ID, meta.partitionId());
        assertEquals(meta, store.createFirstMeta(client), "creating the first META partition again changes nothing");
        store.write(meta.assignedTo("otm-1"), root());
        client.openPartition(new OpenPartitionRequest(CatalogSchemas.META_DATABASE, meta.partitionId(), null, null));
        return store;
    }

    @Test
    void aDatabaseRecordedByOneMasterIsReadBackWholeByTheNext() throws Exception {
        CatalogStore first = bootstrap("master-a/1");
        SchemaSpec shop = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.shop());
        SchemaSpec bank = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.bank());
        List<PartitionRecord> shopParts = List.of(
                PartitionRecord.unassigned("SHOP", 3, null, List.of(100)),
                PartitionRecord.unassigned("SHOP", 4, List.of(100), null));
        first.createDatabase(shop, shopParts, root(), r -> meta());
        first.createDatabase(bank, List.of(PartitionRecord.unassigned("BANK", 5, null, null)), root(), r -> meta());
        schemas.put("SHOP", shop); // As the master does once a create returns.
        first.write(shopParts.get(1).assignedTo("otm-1"), meta());

        IllegalArgumentException again = assertThrows(IllegalArgumentException.class,
                () -> first.createDatabase(shop, List.of(PartitionRecord.unassigned("SHOP", 9, null, null)), root(),
                        r -> meta()));
        assertTrue(again.getMessage().contains("exists already"), again.getMessage());

        // A new master reads ZooKeeper -> ROOT -> META.
        CatalogStore next = store("master-b/2");
        PartitionRecord root = next.loadRootRecord();
        assertEquals("otm-1", root.owner());
        assertEquals(1, root.epoch());
        CatalogStore.RootContents contents = next.loadRoot(client);
        assertEquals(Set.of("SHOP", "BANK"), contents.databases().keySet());
        assertEquals(shop, contents.databases().get("SHOP"));
        assertEquals(List.of(new PartitionRecord("META", 2, null, null, "otm-1", 1)), contents.metaPartitions());
        schemas.putAll(contents.databases());
        CatalogStore.MetaContents metaContents = next.loadMeta(client, CatalogSchemas.FIRST_META_PARTITION_ID,
                contents.databases().keySet());
        assertEquals(List.of(
                        PartitionRecord.unassigned("BANK", 5, null, null),
                        shopParts.get(0),
                        shopParts.get(1).assignedTo("otm-1")),
                metaContents.partitions(), "in catalog key order: database, then start key; SHOP 9 never existed");
        assertEquals(5, metaContents.maxPartitionId());

        // The rows the client routes by: SHOP's start and end keys encoded with its root key.
        List<CatalogRows.PartitionRow> rows = CatalogRows.scan(client, CatalogSchemas.META_DATABASE,
                CatalogSchemas.FIRST_META_PARTITION_ID, "shop");
        assertEquals(2, rows.size());
        MetaRow high = rows.get(1).row();
        KeyCodec codec = KeyCodec.forPartitionKey(shop.toSchema());
        assertArrayEquals(codec.encode(List.of(100)), high.partition().range().start());
        assertTrue(high.partition().range().endUnbounded());
        assertEquals("otm-1", high.owner());
        assertEquals(1, high.partition().epoch());
        assertEquals("master-a/1", rows.get(1).writer());
    }

    @Test
    void aDeposedMastersWritesFailAndChangeNothing() throws Exception {
        CatalogStore old = bootstrap("master-a/1");
        SchemaSpec bank = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.bank());
        schemas.put("BANK", bank);
        PartitionRecord tenant = PartitionRecord.unassigned("BANK", 3, null, null);
        old.createDatabase(bank, List.of(tenant), root(), r -> meta());
        old.write(tenant.assignedTo("otm-1"), meta());

        // The new master reads the catalog and reassigns the tenant.
        CatalogStore next = store("master-b/2");
        next.loadRootRecord();
        List<PartitionRecord> metas = next.loadRoot(client).metaPartitions();
        List<PartitionRecord> read = next.loadMeta(client, metas.get(0).partitionId(), Set.of("BANK")).partitions();
        PartitionRecord moved = read.get(0).assignedTo("otm-2");
        next.write(moved, meta());
        next.write(metas.get(0).assignedTo("otm-2"), root());
        next.write(next.loadRootRecord().assignedTo("otm-2"), null);

        // The old one, unaware, writes from what it knew: every write fails.
        assertThrows(CatalogStore.SupersededException.class,
                () -> old.write(tenant.assignedTo("otm-1").assignedTo("otm-3"), meta()));
        assertThrows(CatalogStore.SupersededException.class,
                () -> old.write(metas.get(0).assignedTo("otm-3"), root()));
        assertThrows(CatalogStore.SupersededException.class,
                () -> old.write(new PartitionRecord("ROOT", 1, null, null, "otm-3", 2), null));

        CatalogStore reader = store("reader/3");
        assertEquals("otm-2", reader.loadRootRecord().owner());
        assertEquals("otm-2", reader.loadRoot(client).metaPartitions().get(0).owner());
        assertEquals(List.of(moved), reader.loadMeta(client, 2, Set.of("BANK")).partitions());
        // The new master goes on writing.
        next.write(moved.assignedTo("otm-1"), meta());
        assertEquals("otm-1", reader.loadMeta(client, 2, Set.of("BANK")).partitions().get(0).owner());
    }

    /** A tenant recorded at otm-1 by the master {@code store}; returns its record. */
    private PartitionRecord tenantAtOtm1(CatalogStore store) throws Exception {
        SchemaSpec bank = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.bank());
        schemas.put("BANK", bank);
        PartitionRecord tenant = PartitionRecord.unassigned("BANK", 3, null, null);
        store.createDatabase(bank, List.of(tenant), root(), r -> meta());
        PartitionRecord atOtm1 = tenant.assignedTo("otm-1");
        store.write(atOtm1, meta());
        return atOtm1;
    }

    /** What a live move's origin does with the master's hand-over: the compare-and-set on META. */
    private PartitionRowSwap.Outcome swapAsTheOrigin(CatalogStore.HandOver h) {
        return PartitionRowSwap.Result.fromWire(client.call(PartitionRowSwap.request(CatalogSchemas.META_DATABASE,
                CatalogSchemas.FIRST_META_PARTITION_ID, h.swapArgs())).result()).outcome();
    }

    private String ownerRead(String writer) throws Exception {
        CatalogStore reader = store(writer);
        reader.loadRootRecord();
        return reader.loadMeta(client, CatalogSchemas.FIRST_META_PARTITION_ID, Set.of("BANK")).partitions().get(0).owner();
    }

    @Test
    void aHandOverTheOriginWroteIsFoundByTheMastersNextWriteNotOverwritten() throws Exception {
        CatalogStore master = bootstrap("master-a/1");
        PartitionRecord atOtm1 = tenantAtOtm1(master);
        CatalogStore.HandOver h = master.prepareHandOver(atOtm1.assignedTo("otm-2"));
        assertEquals(PartitionRowSwap.Outcome.SWAPPED, swapAsTheOrigin(h));
        assertEquals("otm-2", ownerRead("reader/2"));

        // The origin's answer was lost: the master reopens at the origin, and its write finds the hand-over.
        CatalogStore.HandedOverException found = assertThrows(CatalogStore.HandedOverException.class,
                () -> master.write(atOtm1.assignedTo("otm-1"), meta()));
        assertEquals(atOtm1.assignedTo("otm-2"), found.recorded());
        assertEquals("otm-2", ownerRead("reader/3"), "the hand-over was not overwritten");
        // Now known, the row is replaced by the master's next write (the partition opened at the destination).
        PartitionRecord atOtm2 = atOtm1.assignedTo("otm-1").assignedTo("otm-2");
        master.write(atOtm2, meta());
        assertEquals(List.of(atOtm2), store("reader/4").loadMeta(client, 2, Set.of("BANK")).partitions());
    }

    @Test
    void aHandOverThatArrivesAfterTheMastersOwnWriteChangesNothing() throws Exception {
        CatalogStore master = bootstrap("master-a/1");
        PartitionRecord atOtm1 = tenantAtOtm1(master);
        CatalogStore.HandOver h = master.prepareHandOver(atOtm1.assignedTo("otm-2"));
        master.write(atOtm1.assignedTo("otm-1"), meta());
        assertEquals(PartitionRowSwap.Outcome.SUPERSEDED, swapAsTheOrigin(h));
        assertEquals("otm-1", ownerRead("reader/2"));
        // Nothing pending any more: the master's writes go on as before.
        master.write(atOtm1.assignedTo("otm-1").assignedTo("otm-3"), meta());
        assertEquals("otm-3", ownerRead("reader/3"));
    }

    @Test
    void aConfirmedHandOverIsTheVersionTheNextWriteReplaces() throws Exception {
        CatalogStore master = bootstrap("master-a/1");
        PartitionRecord atOtm1 = tenantAtOtm1(master);
        CatalogStore.HandOver h = master.prepareHandOver(atOtm1.assignedTo("otm-2"));
        assertTrue(h.version().writer().startsWith("master-a/1"), h.version().toString());
        assertEquals(PartitionRowSwap.Outcome.SWAPPED, swapAsTheOrigin(h));
        master.handOverRecorded(h);
        master.write(atOtm1.assignedTo("otm-2").assignedTo("otm-3"), meta());
        assertEquals("otm-3", ownerRead("reader/2"));
        // A store that never read the row has no hand-over to give, nor one for ROOT (in ZooKeeper).
        CatalogStore next = store("master-b/2");
        next.loadRootRecord();
        assertNull(next.prepareHandOver(atOtm1), "nothing read yet, nothing to hand over");
        assertNull(master.prepareHandOver(new PartitionRecord("ROOT", 1, null, null, "otm-2", 5)),
                "ROOT's record is in ZooKeeper");
    }

    /** Writes {@code record} with ever newer epochs while META is closed: every attempt fails and is remembered. */
    private PartitionRecord failWhileMetaIsClosed(CatalogStore store, PartitionRecord record, int attempts) {
        client.closePartition(new ClosePartitionRequest(CatalogSchemas.FIRST_META_PARTITION_ID));
        PartitionRecord last = record;
        for (int i = 0; i < attempts; i++) {
            last = last.assignedTo("otm-1");
            PartitionRecord attempt = last;
            assertThrows(CatalogStore.CatalogUnavailableException.class, () -> store.write(attempt, meta()));
        }
        client.openPartition(new OpenPartitionRequest(CatalogSchemas.META_DATABASE,
                CatalogSchemas.FIRST_META_PARTITION_ID, null, null));
        return last;
    }

    @Test
    void aWriteAfterManyLostAttemptsStillChecksTheRowItReplaces() throws Exception {
        CatalogStore a = bootstrap("master-a/1");
        SchemaSpec bank = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.bank());
        schemas.put("BANK", bank);
        PartitionRecord tenant = PartitionRecord.unassigned("BANK", 3, null, null);
        a.createDatabase(bank, List.of(tenant), root(), r -> meta());

        // More attempts than one swap call may name: the write checks the row interactively, and
        // one of them is what the row holds (the first attempts committed nothing, so: the create's).
        PartitionRecord tried = failWhileMetaIsClosed(a, tenant, 70);
        PartitionRecord written = tried.assignedTo("otm-2");
        a.write(written, meta());
        CatalogStore reader = store("reader/9");
        assertEquals(List.of(written), reader.loadMeta(client, 2, Set.of("BANK")).partitions());

        // Another master takes the row over; the first, again past the swap's bound, must fail.
        CatalogStore b = store("master-b/2");
        PartitionRecord taken = b.loadMeta(client, 2, Set.of("BANK")).partitions().get(0).assignedTo("otm-3");
        b.write(taken, meta());
        PartitionRecord late = failWhileMetaIsClosed(a, written, 70).assignedTo("otm-1");
        assertThrows(CatalogStore.SupersededException.class, () -> a.write(late, meta()));
        assertEquals(List.of(taken), reader.loadMeta(client, 2, Set.of("BANK")).partitions(), "the late write changed nothing");
    }

    @Test
    void rowsOfACreateThatNeverFinishedAreIgnoredButTheirIdsAreNotReused() throws Exception {
        CatalogStore store = bootstrap("master-a/1");
        SchemaSpec bank = SchemaSpec.of(MasterReassignsAFailedOtmsPartitionsTest.bank());
        // A master died after writing a database's partition rows into META, before its schema
        // into ROOT: the rows are there, the database is not.
        PartitionRecord orphan = PartitionRecord.unassigned("BANK", 7, null, null);
        MetaRow orphanRow = store.toMetaRow(orphan, bank);
        long txn = client.begin(new BeginRequest(CatalogSchemas.META_DATABASE, CatalogSchemas.FIRST_META_PARTITION_ID,
                Isolation.SERIALIZABLE, 0)).txnId();
        client.put(new PutRequest(txn, CatalogSchemas.PARTITIONS, CatalogRows.toWire(orphanRow, "{}", "master-z/9")));
        client.commit(new CommitRequest(txn));
        assertTrue(CatalogRows.schemaJson(client, "BANK").isEmpty(), "the database does not exist");

        CatalogStore next = store("master-b/2");
        CatalogStore.MetaContents read = next.loadMeta(client, CatalogSchemas.FIRST_META_PARTITION_ID, Set.of());
        assertTrue(read.partitions().isEmpty(), "no database exists, so no partition: " + read.partitions());
        assertEquals(7, read.maxPartitionId(), "the orphan's id is counted, so it is never handed out again");

        // Creating the database again replaces the orphan rows.
        PartitionRecord fresh = PartitionRecord.unassigned("BANK", 8, null, null);
        next.createDatabase(bank, List.of(fresh), root(), r -> meta());
        schemas.put("BANK", bank);
        assertEquals(List.of(fresh), next.loadMeta(client, CatalogSchemas.FIRST_META_PARTITION_ID,
                Set.of(Names.canonical("bank"))).partitions());
        assertEquals(1, CatalogRows.scan(client, CatalogSchemas.META_DATABASE, CatalogSchemas.FIRST_META_PARTITION_ID,
                "BANK").size());
    }
}

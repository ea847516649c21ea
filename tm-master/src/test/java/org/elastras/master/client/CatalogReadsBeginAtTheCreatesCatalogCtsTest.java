package org.elastras.master.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.Names;
import org.elastras.client.CatalogRows;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.PartitionLocation;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.AbortResponse;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.BeginResponse;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.CommitResponse;
import org.elastras.client.protocol.CreateDatabaseRequest;
import org.elastras.client.protocol.CreateDatabaseResponse;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.client.protocol.WireFormat;
import org.elastras.otm.http.ProtocolEndpoint;
import org.elastras.otm.http.ProtocolServer;
import org.elastras.otm.http.ProtocolServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A client's catalog reads begin with the CTS its master reported for the client's latest create
 * as {@code afterCts}, so a database whose create was acknowledged is never missing from the
 * client's next read, however far the catalog owner's snapshot trails the create's commit.
 *
 * <p>The cluster is scripted, over the real transport and a real ZooKeeper: a master that answers
 * {@code createDatabase} with a given catalog CTS, and one OTM serving ROOT, META and the new
 * tenant whose snapshot lags behind the create's commits: a transaction begun without
 * {@code afterCts} reads at the old snapshot and does not see the database, one begun with it
 * reads at it (the real OTM waits, bounded, until its snapshot reaches it). Without the horizon the
 * client's first request after the create fails with UNKNOWN_DATABASE.
 */
class CatalogReadsBeginAtTheCreatesCatalogCtsTest {

    private static final String OTM = "otm-scripted";
    private static final long LAGGING_SNAPSHOT = 400;
    private static final long META_ROW_CTS = 450;
    private static final long SCHEMA_ROW_CTS = 500;
    private static final long TENANT_PARTITION = 7;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    @Test
    void theFirstRequestAfterACreateFindsTheDatabaseAtTheCreatesCatalogCts() throws Exception {
        TestingServer zkServer = new TestingServer(true);
        toClose.add(zkServer);
        ScriptedCatalogOtm otm = new ScriptedCatalogOtm();
        ProtocolServer otmServer = serve(otm);
        ScriptedMaster master = new ScriptedMaster(otm, SCHEMA_ROW_CTS);
        ProtocolServer masterServer = serve(master);
        announce(zkServer.getConnectString(), otmServer.port(), masterServer.port());

        try (ElasTrasClient client = ElasTrasClient.connect(zkServer.getConnectString())) {
            PartitionInfo created = client.admin().createTenant(bank());
            assertEquals(TENANT_PARTITION, created.partitionId());
            PartitionLocation at = client.locate("BANK", List.of());
            assertEquals(TENANT_PARTITION, at.partitionId());
            assertEquals(OTM, at.otmId());
            assertTrue(otm.begins.size() >= 2, "ROOT and META were read: " + otm.begins);
            for (BeginRequest b : otm.begins) {
                assertEquals(SCHEMA_ROW_CTS, b.afterCts(), "a catalog read after the create began at its CTS: " + b);
            }

            // A later create answered with a lower CTS (its ROOT owner's range was lower) lowers nothing.
            master.catalogCts = 300;
            client.admin().createTenant(DatabaseSchema.singlePartition("SHOP")
                    .plain("ITEMS", t -> t.column("ID", ColumnType.BIGINT).key("ID")).build());
            otm.begins.clear();
            assertEquals(OTM, client.locate("SHOP", List.of()).otmId());
            assertFalse(otm.begins.isEmpty());
            for (BeginRequest b : otm.begins) {
                assertEquals(SCHEMA_ROW_CTS, b.afterCts(), "the horizon only grows: " + b);
            }
        }
    }

    @Test
    void aMasterThatReportsNoCatalogCtsLeavesTheReadsWhereTheyWere() throws Exception {
        TestingServer zkServer = new TestingServer(true);
        toClose.add(zkServer);
        ScriptedCatalogOtm otm = new ScriptedCatalogOtm();
        otm.snapshot.set(SCHEMA_ROW_CTS); // caught up: only the CTS sent is under test here
        ProtocolServer otmServer = serve(otm);
        ProtocolServer masterServer = serve(new ScriptedMaster(otm, 0));
        announce(zkServer.getConnectString(), otmServer.port(), masterServer.port());

        try (ElasTrasClient client = ElasTrasClient.connect(zkServer.getConnectString())) {
            client.admin().createTenant(bank());
            assertEquals(OTM, client.locate("BANK", List.of()).otmId());
            for (BeginRequest b : otm.begins) {
                assertEquals(0, b.afterCts(), "an older master's answer (catalogCts 0) asks for no snapshot: " + b);
            }
        }
    }

    private static DatabaseSchema bank() {
        return DatabaseSchema.singlePartition("BANK")
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    private ProtocolServer serve(ProtocolEndpoint endpoint) throws Exception {
        ProtocolServer server = new ProtocolServer(ProtocolServerConfig.defaults("127.0.0.1", 0), endpoint);
        toClose.add(server);
        server.start();
        return server;
    }

    /** What a master and an OTM would have left in ZooKeeper: ROOT's owner, the OTM, the active master. */
    private void announce(String zkConnect, int otmPort, int masterPort) throws Exception {
        ZkPaths paths = ZkPaths.defaults();
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(zkConnect, new RetryOneTime(100))) {
            zk.start();
            zk.create().creatingParentsIfNeeded().forPath(paths.rootPartition(),
                    ("{\"database\":\"ROOT\",\"partitionId\":1,\"owner\":\"" + OTM + "\",\"epoch\":1}")
                            .getBytes(StandardCharsets.UTF_8));
            zk.create().creatingParentsIfNeeded().forPath(paths.otm(OTM),
                    ("{\"host\":\"127.0.0.1\",\"port\":" + otmPort + "}").getBytes(StandardCharsets.UTF_8));
            zk.create().creatingParentsIfNeeded().forPath(paths.activeMaster(),
                    ("{\"masterId\":\"master-scripted\",\"host\":\"127.0.0.1\",\"port\":" + masterPort + "}")
                            .getBytes(StandardCharsets.UTF_8));
        }
    }

    /** Answers createDatabase by recording the database in the scripted OTM, reporting {@link #catalogCts}. */
    private static final class ScriptedMaster implements ProtocolEndpoint {
        private final ScriptedCatalogOtm otm;
        volatile long catalogCts;

        ScriptedMaster(ScriptedCatalogOtm otm, long catalogCts) {
            this.otm = otm;
            this.catalogCts = catalogCts;
        }

        @Override
        public String role() {
            return "master";
        }

        @Override
        public Set<Operation> operations() {
            return Set.of(Operation.CREATE_DATABASE);
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public Object invoke(Operation op, Record request, String client) {
            SchemaSpec schema = ((CreateDatabaseRequest) request).schema();
            String name = Names.canonical(schema.name());
            otm.schemas.put(name, new String(new ProtocolCodec().encode(schema, WireFormat.JSON), StandardCharsets.UTF_8));
            return new CreateDatabaseResponse(List.of(new PartitionInfo(name, TENANT_PARTITION, null, null, OTM, 1,
                    "OPENING")), catalogCts);
        }
    }

    /**
     * Serves ROOT (partition 1), META (partition 2) and every tenant at partition 7, read-only. Every
     * database's schema row committed at {@link #SCHEMA_ROW_CTS} and its META row at
     * {@link #META_ROW_CTS}; a transaction reads at the OTM's snapshot, raised to its
     * {@code afterCts} as the real OTM's wait would, and sees the rows committed at or below it.
     */
    private static final class ScriptedCatalogOtm implements ProtocolEndpoint {
        final AtomicLong snapshot = new AtomicLong(LAGGING_SNAPSHOT);
        final Map<String, String> schemas = new ConcurrentHashMap<>();
        final List<BeginRequest> begins = new CopyOnWriteArrayList<>();
        private final Map<Long, long[]> transactions = new ConcurrentHashMap<>();
        private final AtomicLong txnIds = new AtomicLong();

        @Override
        public String role() {
            return "OTM";
        }

        @Override
        public Set<Operation> operations() {
            return Set.of(Operation.BEGIN, Operation.GET, Operation.SCAN, Operation.COMMIT, Operation.ABORT);
        }

        @Override
        public boolean ready() {
            return true;
        }

        @Override
        public Object invoke(Operation op, Record request, String client) {
            return switch (op) {
                case BEGIN -> begin((BeginRequest) request);
                case GET -> get((GetRequest) request);
                case SCAN -> scan((ScanRequest) request);
                case COMMIT -> {
                    transactions.remove(((CommitRequest) request).txnId());
                    yield new CommitResponse(0);
                }
                case ABORT -> {
                    transactions.remove(((AbortRequest) request).txnId());
                    yield new AbortResponse();
                }
                default -> throw new IllegalArgumentException(op.wireName());
            };
        }

        private BeginResponse begin(BeginRequest request) {
            begins.add(request);
            long at = Math.max(snapshot.get(), request.afterCts());
            long txnId = txnIds.incrementAndGet();
            transactions.put(txnId, new long[] {request.partitionId(), at});
            return new BeginResponse(txnId, at);
        }

        private GetResponse get(GetRequest request) {
            long[] txn = transactions.get(request.txnId());
            String name = (String) request.key().get(0);
            String schema = schemas.get(name);
            if (txn[0] != CatalogSchemas.ROOT_PARTITION_ID || !request.table().equals(CatalogSchemas.DATABASES)
                    || schema == null || txn[1] < SCHEMA_ROW_CTS) {
                return GetResponse.notFound();
            }
            return GetResponse.of(Map.of(CatalogSchemas.NAME, name, CatalogSchemas.SCHEMA, schema));
        }

        private ScanResponse scan(ScanRequest request) {
            long[] txn = transactions.get(request.txnId());
            List<Map<String, Object>> rows = new ArrayList<>();
            if (txn[0] == CatalogSchemas.ROOT_PARTITION_ID && request.table().equals(CatalogSchemas.DATABASES)) {
                if (txn[1] >= SCHEMA_ROW_CTS) {
                    schemas.forEach((name, schema) -> rows.add(Map.of(CatalogSchemas.NAME, name, CatalogSchemas.SCHEMA,
                            schema)));
                }
            } else if (txn[0] == CatalogSchemas.ROOT_PARTITION_ID) {
                rows.add(CatalogRows.toWire(row(CatalogSchemas.META_DATABASE, CatalogSchemas.FIRST_META_PARTITION_ID), "{}",
                        "master-scripted"));
            } else {
                String name = (String) request.toKey().get(0);
                if (schemas.containsKey(name) && txn[1] >= META_ROW_CTS) {
                    rows.add(CatalogRows.toWire(row(name, TENANT_PARTITION), "{}", "master-scripted"));
                }
            }
            return new ScanResponse(rows, false);
        }

        private static MetaRow row(String database, long partitionId) {
            return new MetaRow(new PartitionDescriptor(database, new PartitionId(partitionId), KeyRange.ALL, 1), OTM,
                    PartitionState.OPEN);
        }
    }
}

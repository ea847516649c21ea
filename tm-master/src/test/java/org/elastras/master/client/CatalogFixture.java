package org.elastras.master.client;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.CuratorFramework;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.Names;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.master.cluster.CatalogStore;
import org.elastras.master.cluster.PartitionRecord;

/**
 * Plays the master's part in the catalog for tests that run without one: serves ROOT and META on
 * one OTM and writes the catalog rows with the master's own {@link CatalogStore}, so the client
 * reads exactly what a master would have written.
 */
final class CatalogFixture implements AutoCloseable {

    private final OtmClient catalogOtm;
    private final CatalogStore store;
    private final Map<String, SchemaSpec> schemas = new ConcurrentHashMap<>();

    /** Opens ROOT and META on the OTM {@code otmId} listening on {@code port}, and records them. */
    CatalogFixture(CuratorFramework zk, String otmId, int port) throws Exception {
        this.catalogOtm = new OtmClient("127.0.0.1", port);
        this.store = new CatalogStore(zk, ZkPaths.defaults(), "test-master/1", schemas::get);
        catalogOtm.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(CatalogSchemas.root())));
        catalogOtm.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(CatalogSchemas.meta())));
        store.write(store.loadRootRecord().assignedTo(otmId), null);
        catalogOtm.openPartition(new OpenPartitionRequest(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID,
                null, null));
        PartitionRecord meta = store.createFirstMeta(catalogOtm).assignedTo(otmId);
        store.write(meta, root());
        catalogOtm.openPartition(new OpenPartitionRequest(CatalogSchemas.META_DATABASE, meta.partitionId(), null, null));
    }

    /** Records a database and its partitions (owners as given). */
    void createDatabase(SchemaSpec schema, List<PartitionRecord> records) throws Exception {
        schemas.put(Names.canonical(schema.name()), schema);
        store.createDatabase(schema, records, root(), r -> meta());
    }

    /** Rewrites a partition's record, as the master does when it assigns it again. */
    void write(PartitionRecord record) throws Exception {
        store.write(record, meta());
    }

    private CatalogStore.Holder root() {
        return new CatalogStore.Holder(CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, catalogOtm);
    }

    private CatalogStore.Holder meta() {
        return new CatalogStore.Holder(CatalogSchemas.META_DATABASE, CatalogSchemas.FIRST_META_PARTITION_ID, catalogOtm);
    }

    @Override
    public void close() {
        catalogOtm.close();
    }
}

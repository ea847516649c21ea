package org.elastras.master.local;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PutRequest;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.PartitionView;

/**
 * The demo databases of a local cluster and where their rows live: a tenant database
 * {@value #TENANT} (one partition, table ACCOUNTS) and a tree database {@value #SHOP} (root
 * WAREHOUSE, child STOCK) split by warehouse id into equal ranges. Immutable once created.
 */
final class DemoData {

    static final String TENANT = "DEMO_TENANT";
    static final String SHOP = "DEMO_SHOP";
    private static final int ROWS_PER_LOAD_TXN = 100;

    private final long tenantPartitionId;
    /** Partition ids of SHOP in key order; warehouse w is in partition {@code w * size / warehouses}. */
    private final List<Long> shopPartitionIds;
    private final int tenantRows;
    private final int warehouses;
    private final int itemsPerWarehouse;

    private DemoData(long tenantPartitionId, List<Long> shopPartitionIds, int tenantRows, int warehouses,
            int itemsPerWarehouse) {
        this.tenantPartitionId = tenantPartitionId;
        this.shopPartitionIds = List.copyOf(shopPartitionIds);
        this.tenantRows = tenantRows;
        this.warehouses = warehouses;
        this.itemsPerWarehouse = itemsPerWarehouse;
    }

    static DatabaseSchema tenantSchema() {
        return DatabaseSchema.singlePartition(TENANT)
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    static DatabaseSchema shopSchema() {
        return DatabaseSchema.tree(SHOP)
                .root("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).column("W_NAME", ColumnType.varchar(20)).key("W_ID"))
                .child("STOCK", t -> t.column("W_ID", ColumnType.INT).column("I_ID", ColumnType.INT)
                        .column("QUANTITY", ColumnType.INT).key("W_ID", "I_ID"))
                .build();
    }

    /** Creates both databases through the master; returns without waiting for them to serve. */
    static DemoData create(Master master, LocalClusterConfig config) throws Exception {
        PartitionView tenant = master.createTenant(tenantSchema());
        List<List<Object>> boundaries = new ArrayList<>();
        for (int k = 1; k < config.shopPartitions(); k++) {
            boundaries.add(List.of(firstWarehouseOf(k, config.shopPartitions(), config.warehouses())));
        }
        List<Long> shop = master.createDatabase(shopSchema(), boundaries).stream()
                .sorted(Comparator.comparingLong(v -> v.record().partitionId()))
                .map(v -> v.record().partitionId()).toList();
        if (shop.size() != config.shopPartitions()) {
            throw new IllegalStateException("asked for " + config.shopPartitions() + " partitions of " + SHOP
                    + ", the master made " + shop.size());
        }
        return new DemoData(tenant.record().partitionId(), shop, config.tenantRows(), config.warehouses(),
                config.itemsPerWarehouse());
    }

    /** The first warehouse id of range {@code k} of {@code partitions} over {@code [0, warehouses)}. */
    private static int firstWarehouseOf(int k, int partitions, int warehouses) {
        return (int) ((long) k * warehouses / partitions);
    }

    long tenantPartitionId() {
        return tenantPartitionId;
    }

    long shopPartitionOf(int warehouse) {
        int k = shopPartitionIds.size() - 1;
        while (k > 0 && warehouse < firstWarehouseOf(k, shopPartitionIds.size(), warehouses)) {
            k--;
        }
        return shopPartitionIds.get(k);
    }

    int tenantRows() {
        return tenantRows;
    }

    int warehouses() {
        return warehouses;
    }

    int itemsPerWarehouse() {
        return itemsPerWarehouse;
    }

    int rowCount() {
        return tenantRows + warehouses * (1 + itemsPerWarehouse);
    }

    /**
     * Writes every row, at most {@value #ROWS_PER_LOAD_TXN} per transaction, one loading thread per
     * partition. Call once every partition serves.
     */
    void load(OwnerDirectory owners) throws Exception {
        List<Callable<Void>> perPartition = new ArrayList<>();
        perPartition.add(() -> {
            List<Map<String, Object>> batch = new ArrayList<>();
            for (long id = 0; id < tenantRows; id++) {
                batch.add(Map.of("ID", id, "BALANCE", 1_000L));
                if (batch.size() == ROWS_PER_LOAD_TXN || id == tenantRows - 1) {
                    write(owners, TENANT, tenantPartitionId, "ACCOUNTS", batch);
                    batch.clear();
                }
            }
            return null;
        });
        for (long partitionId : shopPartitionIds) {
            perPartition.add(() -> {
                for (int w = 0; w < warehouses; w++) {
                    if (shopPartitionOf(w) != partitionId) {
                        continue;
                    }
                    List<Map<String, Object>> batch = new ArrayList<>();
                    batch.add(Map.of("W_ID", w, "W_NAME", "warehouse-" + w));
                    write(owners, SHOP, partitionId, "WAREHOUSE", batch);
                    batch.clear();
                    for (int i = 0; i < itemsPerWarehouse; i++) {
                        batch.add(Map.of("W_ID", w, "I_ID", i, "QUANTITY", 100));
                    }
                    write(owners, SHOP, partitionId, "STOCK", batch);
                }
                return null;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(perPartition.size());
        try {
            for (Future<Void> f : pool.invokeAll(perPartition)) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void write(OwnerDirectory owners, String database, long partitionId, String table,
            List<Map<String, Object>> rows) throws Exception {
        OtmClient client = owners.clientFor(partitionId);
        if (client == null) {
            throw new IllegalStateException("partition " + partitionId + " of " + database + " has no serving owner");
        }
        long txn = client.begin(new BeginRequest(database, partitionId, Isolation.SERIALIZABLE, 0)).txnId();
        for (Map<String, Object> row : rows) {
            client.put(new PutRequest(txn, table, row));
        }
        try {
            client.commit(new CommitRequest(txn));
        } catch (ElasTrasException e) {
            throw new IllegalStateException("loading " + table + " into partition " + partitionId + " failed: "
                    + e.code() + " " + e.getMessage(), e);
        }
    }
}

package org.elastras.master.local;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;

/**
 * The demo databases of a local cluster: a tenant database {@value #TENANT} (one partition, table
 * ACCOUNTS) and a tree database {@value #SHOP} (root WAREHOUSE, child STOCK) split by warehouse id
 * into equal ranges. Created through the master's admin API and loaded through the routing client,
 * like an application would. Immutable once created.
 */
final class DemoData {

    static final String TENANT = "DEMO_TENANT";
    static final String SHOP = "DEMO_SHOP";
    private static final int ROWS_PER_LOAD_TXN = 100;

    private final int tenantRows;
    private final int warehouses;
    private final int itemsPerWarehouse;
    private final int shopPartitions;

    private DemoData(int tenantRows, int warehouses, int itemsPerWarehouse, int shopPartitions) {
        this.tenantRows = tenantRows;
        this.warehouses = warehouses;
        this.itemsPerWarehouse = itemsPerWarehouse;
        this.shopPartitions = shopPartitions;
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

    /** Creates both databases through the active master; returns without waiting for them to serve. */
    static DemoData create(ElasTrasClient client, LocalClusterConfig config) {
        client.admin().createTenant(tenantSchema());
        List<List<Object>> boundaries = new ArrayList<>();
        for (int k = 1; k < config.shopPartitions(); k++) {
            boundaries.add(List.of(firstWarehouseOf(k, config.shopPartitions(), config.warehouses())));
        }
        List<PartitionInfo> shop = client.admin().createDatabase(shopSchema(), boundaries);
        if (shop.size() != config.shopPartitions()) {
            throw new IllegalStateException("asked for " + config.shopPartitions() + " partitions of " + SHOP
                    + ", the master made " + shop.size());
        }
        return new DemoData(config.tenantRows(), config.warehouses(), config.itemsPerWarehouse(), config.shopPartitions());
    }

    /** The first warehouse id of range {@code k} of {@code partitions} over {@code [0, warehouses)}. */
    private static int firstWarehouseOf(int k, int partitions, int warehouses) {
        return (int) ((long) k * warehouses / partitions);
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
     * Writes every row, at most {@value #ROWS_PER_LOAD_TXN} per transaction: one loading thread for
     * the tenant and one per range of warehouses. Call once every partition serves.
     */
    void load(ElasTrasClient client) throws Exception {
        List<Callable<Void>> loaders = new ArrayList<>();
        loaders.add(() -> {
            for (long from = 0; from < tenantRows; from += ROWS_PER_LOAD_TXN) {
                long first = from;
                long last = Math.min(tenantRows, from + ROWS_PER_LOAD_TXN);
                client.runInTransaction(TENANT, List.of(), txn -> {
                    for (long id = first; id < last; id++) {
                        txn.put("ACCOUNTS", Map.of("ID", id, "BALANCE", 1_000L));
                    }
                    return null;
                });
            }
            return null;
        });
        for (int k = 0; k < shopPartitions; k++) {
            int firstWarehouse = firstWarehouseOf(k, shopPartitions, warehouses);
            int endWarehouse = firstWarehouseOf(k + 1, shopPartitions, warehouses);
            loaders.add(() -> {
                for (int w = firstWarehouse; w < endWarehouse; w++) {
                    int warehouse = w;
                    client.runInTransaction(SHOP, List.of(warehouse), txn -> {
                        txn.put("WAREHOUSE", Map.of("W_ID", warehouse, "W_NAME", "warehouse-" + warehouse));
                        for (int i = 0; i < itemsPerWarehouse; i++) {
                            txn.put("STOCK", Map.of("W_ID", warehouse, "I_ID", i, "QUANTITY", 100));
                        }
                        return null;
                    });
                }
                return null;
            });
        }
        ExecutorService pool = Executors.newFixedThreadPool(loaders.size());
        try {
            for (Future<Void> f : pool.invokeAll(loaders)) {
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

    /**
     * How many increments the demo rows hold (the sum of every counter minus its loaded value), read
     * through {@code client}; with the workload stopped it equals the workload's committed count.
     */
    long incrementsApplied(ElasTrasClient client) {
        long applied = client.runInTransaction(TENANT, List.of(), txn -> {
            long sum = 0;
            List<Map<String, Object>> rows = txn.scan("ACCOUNTS", List.of(), List.of(), tenantRows + 1);
            if (rows.size() != tenantRows) {
                throw new IllegalStateException(TENANT + " holds " + rows.size() + " accounts, loaded " + tenantRows);
            }
            for (Map<String, Object> row : rows) {
                sum += (Long) row.get("BALANCE") - 1_000L;
            }
            return sum;
        });
        for (int w = 0; w < warehouses; w++) {
            int warehouse = w;
            applied += client.runInTransaction(SHOP, List.of(warehouse), txn -> {
                long sum = 0;
                List<Map<String, Object>> rows = txn.scan("STOCK", List.of(warehouse), List.of(warehouse),
                        itemsPerWarehouse + 1);
                if (rows.size() != itemsPerWarehouse) {
                    throw new IllegalStateException("warehouse " + warehouse + " holds " + rows.size() + " stock rows, loaded "
                            + itemsPerWarehouse);
                }
                for (Map<String, Object> row : rows) {
                    sum += (Integer) row.get("QUANTITY") - 100;
                }
                return sum;
            });
        }
        return applied;
    }
}

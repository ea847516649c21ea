package org.elastras.experiments.tpcc;

import java.util.List;

/**
 * Maps a warehouse to the partition that holds it when the TPCC database is split into partitions
 * of {@code warehousesPerPartition} consecutive warehouses: partition p (from 1) holds warehouses
 * (p-1)*k+1 .. p*k, i.e. root keys [(p-1)*k+1, p*k+1). A stand-in for the cluster client's
 * META lookup over the in-process OTM's partitions. Immutable.
 */
public final class WarehouseRouter {

    private final int warehouses;
    private final int warehousesPerPartition;

    public WarehouseRouter(int warehouses, int warehousesPerPartition) {
        if (warehouses < 1 || warehousesPerPartition < 1) {
            throw new IllegalArgumentException("warehouses and warehousesPerPartition must be positive, got " + warehouses
                    + " and " + warehousesPerPartition);
        }
        this.warehouses = warehouses;
        this.warehousesPerPartition = warehousesPerPartition;
    }

    public int partitions() {
        return (warehouses + warehousesPerPartition - 1) / warehousesPerPartition;
    }

    /** The partition id (1..partitions()) holding warehouse {@code w}. */
    public long partitionOf(int w) {
        if (w < 1 || w > warehouses) {
            throw new IllegalArgumentException("warehouse must be 1.." + warehouses + ", got " + w);
        }
        return (w - 1) / warehousesPerPartition + 1;
    }

    /** Partition p's range start as root-key values; null (unbounded) for the first partition. */
    public List<Object> startKey(long p) {
        return p == 1 ? null : List.of((int) ((p - 1) * warehousesPerPartition + 1));
    }

    /** Partition p's range end (exclusive) as root-key values; null (unbounded) for the last partition. */
    public List<Object> endKey(long p) {
        return p == partitions() ? null : List.of((int) (p * warehousesPerPartition + 1));
    }
}

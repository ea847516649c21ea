package org.elastras.experiments.tpcc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elastras.client.protocol.Isolation;

/**
 * Opens the targets of one benchmark run by name, each in a fresh database, and owns what they
 * share: the PostgreSQL server, started on the first PostgreSQL target and stopped by
 * {@link #close}. Used by one thread.
 */
final class TpccTargets implements AutoCloseable {

    /** The -si targets: New-Order, Payment and Delivery at SNAPSHOT isolation (OtmTpccTarget.start, ClusterTpccTarget.start). */
    static final List<String> NAMES = List.of("derby", "elastras", "elastras-si", "elastras-cluster", "elastras-cluster-si",
            "postgres-jdbc", "postgres-plpgsql", "postgres-jdbc-si", "postgres-plpgsql-si");
    /** OTM processes of the cluster target by default. */
    static final int CLUSTER_OTMS = 2;
    /** Heap of each OTM process of the cluster target. */
    static final int CLUSTER_OTM_HEAP_MB = 2_048;
    /** Derby's page cache in 4 KiB pages: 256 MiB. */
    static final int DERBY_PAGE_CACHE_PAGES = 65_536;

    private final Path scratch;
    private final int warehouses;
    private final int warehousesPerPartition;
    private final int terminals;
    private final int clusterOtms;
    private PostgresServer postgres;

    /**
     * @param scratch where the targets' files go (a directory per target)
     * @param terminals terminals of the run (PostgreSQL's connection limit is set from it)
     * @param clusterOtms OTM processes of the cluster target
     */
    /** Targets opened so far; names their directories. Used by one thread. */
    private int opened;

    TpccTargets(Path scratch, int warehouses, int warehousesPerPartition, int terminals, int clusterOtms) {
        this.scratch = scratch;
        this.warehouses = warehouses;
        this.warehousesPerPartition = warehousesPerPartition;
        this.terminals = terminals;
        this.clusterOtms = clusterOtms;
    }

    static boolean isElastras(String name) {
        return name.startsWith("elastras");
    }

    static boolean isPostgres(String name) {
        return name.startsWith("postgres");
    }

    /**
     * The server settings of the PostgreSQL baseline: durable commits (the defaults, spelled out),
     * a buffer pool that holds the database, checkpoints far enough apart that a short run does not
     * measure one, connections for every terminal (PL/pgSQL terminals hold two), and room for what
     * SERIALIZABLE transactions track: predicate locks (the default, 64 a connection, ran out under
     * 20 terminals: locks taken coarser, more serialization failures, and 1,897 transactions of a
     * session-31 run failed with sqlstate 53200; with 1,024 the PL/pgSQL mode went from 32,748 to
     * 49,904 tpmC with 0 failed) and read/write conflicts (a pool of five per connection slot:
     * "not enough elements in RWConflictPool" still showed, so at least 200 slots).
     */
    Map<String, String> postgresSettings() {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("fsync", "on");
        s.put("synchronous_commit", "on");
        s.put("full_page_writes", "on");
        s.put("shared_buffers", "1GB");
        s.put("max_wal_size", "4GB");
        s.put("max_connections", Integer.toString(Math.max(200, 2 * terminals + 20)));
        s.put("max_pred_locks_per_transaction", "1024");
        return s;
    }

    /**
     * A new, empty target, in a directory of its own: a target opened again in one run (once per
     * remote warehouse mode) must not find the files of the first (a cluster's DFS and ZooKeeper
     * data, a published global table, a Derby database).
     */
    TpccTarget open(String name) throws Exception {
        opened++;
        Path dir = scratch.resolve(name + "-" + opened);
        Files.createDirectories(dir);
        return switch (name) {
            case "derby" -> DerbyTpccTarget.create(dir.resolve("db"), DERBY_PAGE_CACHE_PAGES);
            case "elastras" -> OtmTpccTarget.start(dir, warehouses, warehousesPerPartition, Isolation.SERIALIZABLE);
            case "elastras-si" -> OtmTpccTarget.start(dir, warehouses, warehousesPerPartition, Isolation.SNAPSHOT);
            case "elastras-cluster" -> ClusterTpccTarget.start(dir, warehouses, warehousesPerPartition, clusterOtms,
                    CLUSTER_OTM_HEAP_MB);
            case "elastras-cluster-si" -> ClusterTpccTarget.start(dir, warehouses, warehousesPerPartition, clusterOtms,
                    CLUSTER_OTM_HEAP_MB, Isolation.SNAPSHOT);
            case "postgres-jdbc", "postgres-plpgsql", "postgres-jdbc-si", "postgres-plpgsql-si" -> {
                if (postgres == null) {
                    postgres = PostgresServer.start(postgresSettings());
                }
                yield PostgresTpccTarget.create(postgres, name.replace('-', '_') + "_" + opened,
                        name.contains("plpgsql") ? PostgresTpccTarget.Mode.PLPGSQL : PostgresTpccTarget.Mode.JDBC,
                        name.endsWith("-si") ? Connection.TRANSACTION_REPEATABLE_READ : Connection.TRANSACTION_SERIALIZABLE);
            }
            default -> throw new IllegalArgumentException("unknown target " + name + "; the targets are " + NAMES);
        };
    }

    @Override
    public void close() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }
}

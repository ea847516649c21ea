package org.elastras.client;

/**
 * Reads the catalog: the IO half of locating partitions. Implementations are thread-safe.
 *
 * <p>Today the partition map is in ZooKeeper ({@link ZkCatalogReader}); when it moves into the
 * ROOT/META partitions, a reader that scans META (ZooKeeper -> ROOT -> META) replaces it and
 * nothing above this interface changes.
 */
interface CatalogReader extends AutoCloseable {

    /**
     * Reads one database: schema, every partition's row, and the live OTMs' addresses.
     *
     * @throws org.elastras.client.protocol.ElasTrasException {@code UNKNOWN_DATABASE} if the catalog
     *     has no such database; {@code UNREACHABLE} (retryable) if the catalog cannot be read now
     */
    CatalogSnapshot read(String database);

    @Override
    void close();
}

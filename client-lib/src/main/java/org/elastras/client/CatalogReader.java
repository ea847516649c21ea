package org.elastras.client;

/**
 * Reads the catalog: the IO half of locating partitions. Implementations are thread-safe.
 *
 * <p>The implementation is {@link MetaCatalogReader} (ZooKeeper -> ROOT -> META); tests script
 * their own.
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

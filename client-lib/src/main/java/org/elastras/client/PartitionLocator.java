package org.elastras.client;

import org.elastras.catalog.schema.DatabaseSchema;

/**
 * Answers "which OTM serves the partition of database D that holds encoded root key K", with a
 * cache in front of the catalog. Implementations are thread-safe.
 *
 * <p>The implementation: {@link CachingPartitionLocator} over {@link MetaCatalogReader}.
 */
interface PartitionLocator extends AutoCloseable {

    /**
     * The database's schema (cached after the first read).
     *
     * @throws org.elastras.client.protocol.ElasTrasException {@code UNKNOWN_DATABASE}; {@code UNREACHABLE}
     *     if the catalog cannot be read now
     */
    DatabaseSchema schema(String database);

    /**
     * Where the partition holding {@code rootKey} is served: from the cache, or else after reading
     * the catalog again.
     *
     * @throws org.elastras.client.protocol.ElasTrasException {@code NOT_SERVING} (retryable) if the
     *     catalog names no live owner now (the partition is being reassigned); {@code UNKNOWN_DATABASE};
     *     {@code UNREACHABLE} if the catalog cannot be read now
     */
    PartitionLocation locate(String database, byte[] rootKey);

    /** Forgets {@code stale} (a request there failed with a routing error); the next locate reads again. */
    void invalidate(PartitionLocation stale);

    /**
     * Replaces {@code stale} with {@code next}, where its owner said it handed the partition over
     * in a live move: the next locate answers {@code next} without reading the catalog.
     */
    void handedOver(PartitionLocation stale, PartitionLocation next);

    /** How many times the catalog was read (a whole database at a time). */
    long reads();

    @Override
    void close();
}

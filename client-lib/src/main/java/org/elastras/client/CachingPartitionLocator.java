package org.elastras.client;

import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;

/**
 * A {@link PartitionLocator} that answers from a {@link LocationCache} and reads a whole database
 * from a {@link CatalogReader} on a miss. Thread-safe.
 *
 * <p>Reads are single-flight: one thread reads the catalog at a time; a thread that waited for
 * another's read uses its result instead of reading again when it answers the lookup. The number
 * of reads is bounded by the callers' retry backoff, not here.
 */
final class CachingPartitionLocator implements PartitionLocator {

    private final CatalogReader reader;
    private final LocationCache cache;
    private final LongSupplier nanoTime;
    private final Consumer<Set<String>> liveOtmsListener;
    /** Held while reading the catalog (never while holding the cache's monitor). */
    private final ReentrantLock reading = new ReentrantLock();
    /** Catalog reads done, for tests and metrics. Written under {@link #reading}. */
    private volatile long reads;

    /**
     * @param liveOtmsListener told the ids of the live OTMs after every catalog read (the client
     *     closes its connections to the others)
     */
    CachingPartitionLocator(CatalogReader reader, int locationsMax, LongSupplier nanoTime,
            Consumer<Set<String>> liveOtmsListener) {
        this.reader = reader;
        this.cache = new LocationCache(locationsMax);
        this.nanoTime = nanoTime;
        this.liveOtmsListener = liveOtmsListener;
    }

    CachingPartitionLocator(CatalogReader reader, int locationsMax, LongSupplier nanoTime) {
        this(reader, locationsMax, nanoTime, live -> { });
    }

    @Override
    public DatabaseSchema schema(String database) {
        return cache.schema(database).orElseGet(() -> {
            reading.lock();
            try {
                return cache.schema(database).orElseGet(() -> read(database).schema());
            } finally {
                reading.unlock();
            }
        });
    }

    @Override
    public PartitionLocation locate(String database, byte[] rootKey) {
        LocationCache.Result hit = cache.find(database, rootKey);
        if (hit.found()) {
            return hit.location();
        }
        long askedAt = nanoTime.getAsLong();
        reading.lock();
        try {
            // Another thread may have read the catalog while this one waited for the lock.
            if (lastReadAtNanos - askedAt > 0) {
                hit = cache.find(database, rootKey);
                if (hit.found()) {
                    return hit.location();
                }
            }
            read(database);
            hit = cache.find(database, rootKey);
        } finally {
            reading.unlock();
        }
        if (!hit.found()) {
            throw new ElasTrasException(ErrorCode.NOT_SERVING, "no OTM serves that key now: " + hit.missReason()
                    + " (the master is assigning it; retry)");
        }
        return hit.location();
    }

    /** Guarded by {@link #reading}: when the last catalog read finished. */
    private long lastReadAtNanos = Long.MIN_VALUE / 2;

    private CatalogSnapshot read(String database) {
        CatalogSnapshot snapshot = reader.read(database);
        cache.put(snapshot);
        liveOtmsListener.accept(snapshot.liveOtms().keySet());
        reads++;
        lastReadAtNanos = nanoTime.getAsLong();
        return snapshot;
    }

    @Override
    public void invalidate(PartitionLocation stale) {
        cache.invalidate(stale);
    }

    @Override
    public void handedOver(PartitionLocation stale, PartitionLocation next) {
        cache.handedOver(stale, next);
    }

    @Override
    public long reads() {
        return reads;
    }

    /** The cache, for tests. */
    LocationCache cache() {
        return cache;
    }

    @Override
    public void close() {
        reader.close();
    }
}

package org.elastras.client;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The commit timestamp a client's catalog reads begin at or after: the highest catalog CTS the
 * master reported for a database this client created. It is session consistency for the catalog:
 * {@link AdminClient} raises it when a create is acknowledged, and {@link MetaCatalogReader} sends
 * it as {@code afterCts} with every read-only transaction on ROOT and META, so a database the
 * client was told exists is never missing from its next catalog read, however far the catalog
 * owner's snapshot trails the create's commit (the owner waits, bounded, until it reaches it).
 *
 * <p>Thread-safe: it only grows (a monotonic maximum), so concurrent creates and reads need no
 * other coordination.
 */
final class CatalogHorizon {

    private final AtomicLong afterCts = new AtomicLong();

    /** The CTS catalog reads begin at or after now (0 before any create reported one). */
    long afterCts() {
        return afterCts.get();
    }

    /**
     * Raises the horizon to {@code catalogCts} if it is higher; 0 (a master that does not report
     * it) changes nothing.
     *
     * @throws IllegalArgumentException if {@code catalogCts} is negative
     */
    void reached(long catalogCts) {
        if (catalogCts < 0) {
            throw new IllegalArgumentException("a catalog CTS is not negative, got " + catalogCts);
        }
        afterCts.accumulateAndGet(catalogCts, Math::max);
    }
}

package org.elastras.client;

import java.util.Objects;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.catalog.schema.Names;
import org.elastras.client.protocol.MoveDestination;

/**
 * Where one partition is served, as the catalog said when it was read: the partition, its range of
 * encoded root keys, its ownership epoch and the owning OTM with its address. Immutable.
 *
 * <p>A location may be stale by the time it is used (the partition moved, the OTM died); the OTM
 * then answers {@code NOT_OWNER} or cannot be reached, and the client looks the partition up again.
 *
 * @param database the database, in canonical (upper) case
 * @param partitionId the partition's id
 * @param epoch the ownership epoch the catalog recorded
 * @param range the encoded root keys the partition covers
 * @param otmId the owning OTM's id
 * @param host the owning OTM's host
 * @param port the owning OTM's port
 */
public record PartitionLocation(String database, long partitionId, long epoch, KeyRange range, String otmId,
        String host, int port) {

    public PartitionLocation {
        Names.check("database name", database);
        database = Names.canonical(database);
        if (partitionId <= 0 || epoch < 0) {
            throw new IllegalArgumentException("partition id must be positive and epoch not negative, got "
                    + partitionId + " and " + epoch);
        }
        Objects.requireNonNull(range, "range");
        ZkPaths.checkOtmId(otmId);
        if (host == null || host.isBlank() || port < 1 || port > 65_535) {
            throw new IllegalArgumentException("OTM " + otmId + " has no usable address: " + host + ":" + port);
        }
    }

    /**
     * This partition at the OTM its owner said it handed it over to (a NOT_OWNER answer's
     * {@code movedTo}): the next epoch, as the catalog will record it.
     */
    public PartitionLocation handedOverTo(MoveDestination next) {
        return new PartitionLocation(database, partitionId, epoch + 1, range, next.otmId(), next.host(), next.port());
    }

    /** Whether the partition covers the encoded root key {@code rootKey}. */
    public boolean covers(byte[] rootKey) {
        return range.contains(rootKey);
    }

    @Override
    public String toString() {
        return database + " partition " + partitionId + " (epoch " + epoch + ") on " + otmId + " at " + host + ":" + port;
    }
}

package org.elastras.master.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.elastras.catalog.meta.ZkPaths;

/**
 * One user partition as the master records it: which database and root-key range it covers,
 * which OTM it was last assigned to and under which epoch. Immutable.
 *
 * <p>The owner is kept until the partition is assigned again, also while it is unassigned after a
 * failure: a master that takes over must know whose log to fence before anyone else may open it.
 *
 * @param database the database's name
 * @param partitionId unique across the cluster (an OTM keys its partitions by id alone)
 * @param startKey first root key covered, as root-key wire values; null for unbounded below
 * @param endKey first root key past the partition; null for unbounded above
 * @param owner the OTM it was last assigned to, null if never assigned
 * @param epoch how many times it has been assigned (each open attempt is a new epoch)
 */
public record PartitionRecord(String database, long partitionId, List<Object> startKey, List<Object> endKey,
        String owner, long epoch) {

    public PartitionRecord {
        Objects.requireNonNull(database, "database");
        if (partitionId <= 0) {
            throw new IllegalArgumentException("partitionId must be positive, got " + partitionId);
        }
        if (epoch < 0) {
            throw new IllegalArgumentException("epoch must not be negative, got " + epoch);
        }
        if (owner != null) {
            ZkPaths.checkOtmId(owner);
        }
        startKey = immutable(startKey);
        endKey = immutable(endKey);
    }

    /** A partition never assigned. */
    public static PartitionRecord unassigned(String database, long partitionId, List<Object> startKey,
            List<Object> endKey) {
        return new PartitionRecord(database, partitionId, startKey, endKey, null, 0);
    }

    /** This partition assigned to {@code otmId} under the next epoch. */
    public PartitionRecord assignedTo(String otmId) {
        return new PartitionRecord(database, partitionId, startKey, endKey, Objects.requireNonNull(otmId), epoch + 1);
    }

    private static List<Object> immutable(List<Object> values) {
        // Root-key values may be null inside (nullable columns are refused by the OTM, not here).
        return values == null || values.isEmpty() ? null : Collections.unmodifiableList(new ArrayList<>(values));
    }
}

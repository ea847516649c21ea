package org.elastras.catalog.partition;

import java.util.ArrayList;
import java.util.List;

import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.PartitioningKind;

/**
 * The partitions a database starts with: one for a tenant, and for a tree-partitioned database
 * contiguous ranges of its root key split at given boundaries. Stateless.
 *
 * <p>The ranges of a tree database cover the whole key space: the first starts at the smallest key
 * and the last ends at +infinity, so every root key, including ones below the first boundary or
 * above the last, has a partition. Partition identifiers are handed out consecutively from the one
 * given; the caller (the master) owns the identifier sequence. Every epoch starts at 0.
 */
public final class InitialPartitions {

    /** Most partitions one call creates. */
    public static final int PARTITIONS_MAX = 100_000;

    private InitialPartitions() {
    }

    /** The one partition of a single-partition database, covering {@link KeyRange#ALL}. */
    public static PartitionDescriptor singlePartition(DatabaseSchema database, PartitionId id) {
        if (database.partitioning() != PartitioningKind.SINGLE_PARTITION) {
            throw new IllegalArgumentException("database " + database.name()
                    + " is tree-partitioned; create its partitions with InitialPartitions.tree");
        }
        return new PartitionDescriptor(database.name(), id, KeyRange.ALL, 0);
    }

    /**
     * The partitions of a tree database split at {@code boundaries}, root-key values in increasing
     * order: n boundaries give n + 1 partitions, {@code [smallest, b1), [b1, b2), ..., [bn, +inf)}.
     *
     * @throws IllegalArgumentException if the database is not tree-partitioned, a boundary is not a
     *     valid root key, the boundaries are not strictly increasing, or there would be more than
     *     {@link #PARTITIONS_MAX} partitions
     */
    public static List<PartitionDescriptor> tree(DatabaseSchema database, List<List<Object>> boundaries, PartitionId firstId) {
        if (boundaries.size() + 1 > PARTITIONS_MAX) {
            throw new IllegalArgumentException(boundaries.size() + 1 + " initial partitions for database " + database.name()
                    + " exceed the limit of " + PARTITIONS_MAX + "; use fewer, larger groups");
        }
        KeyCodec codec = KeyCodec.forPartitionKey(database);
        List<byte[]> starts = new ArrayList<>();
        starts.add(new byte[0]);
        for (List<Object> b : boundaries) {
            byte[] encoded = codec.encode(b);
            if (KeyBytes.compare(starts.get(starts.size() - 1), encoded) >= 0) {
                throw new IllegalArgumentException("partition boundary " + b + " of database " + database.name()
                        + " is not above the one before it; give boundaries in strictly increasing order");
            }
            starts.add(encoded);
        }
        List<PartitionDescriptor> out = new ArrayList<>(starts.size());
        PartitionId id = firstId;
        for (int i = 0; i < starts.size(); i++) {
            byte[] end = i + 1 < starts.size() ? starts.get(i + 1) : new byte[0];
            out.add(new PartitionDescriptor(database.name(), id, new KeyRange(starts.get(i), end), 0));
            id = id.next();
        }
        return List.copyOf(out);
    }

    /**
     * Boundaries for a single integer root key (TPC-C's warehouse id) holding ids
     * {@code first..last} in groups of {@code groupSize}: {@code first + groupSize, first + 2 * groupSize, ...}
     * up to {@code last}. With {@link #tree} this puts ids {@code first..first+groupSize-1} (and any
     * below) in the first partition, and so on, the last group (and any id above) in the last.
     */
    public static List<List<Object>> groupBoundaries(long first, long last, long groupSize) {
        if (last < first || groupSize < 1) {
            throw new IllegalArgumentException("need first <= last and groupSize >= 1, got first " + first + ", last "
                    + last + ", groupSize " + groupSize);
        }
        long groups = Math.subtractExact(last, first) / groupSize + 1;
        if (groups > PARTITIONS_MAX) {
            throw new IllegalArgumentException(groups + " groups exceed the limit of " + PARTITIONS_MAX
                    + " partitions; use a larger groupSize");
        }
        List<List<Object>> out = new ArrayList<>();
        for (long i = 1; i < groups; i++) {
            out.add(List.of(first + i * groupSize));
        }
        return List.copyOf(out);
    }
}

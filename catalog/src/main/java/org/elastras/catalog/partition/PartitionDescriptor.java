package org.elastras.catalog.partition;

import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.schema.Names;

/**
 * What a partition is: the database it belongs to, its identifier, the range of encoded root keys it
 * covers and its ownership epoch. Immutable.
 *
 * <p>The key range is over the encoded partition key (the ROOT table's key, see
 * {@code KeyCodec.forPartitionKey}); a single-partition database's one partition covers
 * {@link KeyRange#ALL}. The epoch starts at 0 and grows by one at every change of owner, so a stale
 * owner can be fenced by comparing epochs.
 *
 * <p>The database name is held in {@link Names#canonical canonical} (upper) case, since names that
 * differ only in case are the same database, and the catalog's keys must not tell them apart.
 *
 * @param database the database name
 * @param id the partition's identifier
 * @param range the encoded root keys it covers
 * @param epoch the ownership epoch, not negative
 */
public record PartitionDescriptor(String database, PartitionId id, KeyRange range, long epoch) {

    public PartitionDescriptor {
        Names.check("database name", database);
        database = Names.canonical(database);
        if (id == null || range == null) {
            throw new IllegalArgumentException("partition of database " + database + " needs an id and a key range, got "
                    + id + " and " + range);
        }
        if (epoch < 0) {
            throw new IllegalArgumentException("partition " + id + " epoch must not be negative, got " + epoch);
        }
    }

    /** The same partition with the epoch after this one. */
    public PartitionDescriptor nextEpoch() {
        return new PartitionDescriptor(database, id, range, Math.addExact(epoch, 1));
    }
}

package org.elastras.catalog.meta;

import org.elastras.catalog.partition.PartitionDescriptor;

/**
 * One row of the catalog: a partition, the OTM that owns it and its state. Immutable.
 *
 * <p>A META row describes a user partition; a ROOT row describes a META partition (its database is
 * {@link MetaRowCodec#META_DATABASE} and its range is over encoded META row keys). Both are stored as
 * key (database, start key, partition id) and value (end key, owner, state, epoch), see
 * {@link MetaRowCodec}.
 *
 * @param partition the partition
 * @param owner the owning OTM's id when {@code state.hasOwner()}, else null
 * @param state the partition's state
 */
public record MetaRow(PartitionDescriptor partition, String owner, PartitionState state) {

    public MetaRow {
        if (partition == null || state == null) {
            throw new IllegalArgumentException("a catalog row needs a partition and a state, got " + partition + " and " + state);
        }
        if (state.hasOwner()) {
            if (owner == null) {
                throw new IllegalArgumentException("partition " + partition.id() + " in state " + state
                        + " needs an owner OTM; name one or use UNASSIGNED");
            }
            ZkPaths.checkOtmId(owner);
        } else if (owner != null) {
            throw new IllegalArgumentException("partition " + partition.id() + " in state " + state
                    + " has no owner, got '" + owner + "'");
        }
    }
}

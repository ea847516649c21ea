package org.elastras.master.balance;

/**
 * Where a partition is as the balancer sees it. Immutable.
 *
 * @param owner the OTM it is assigned to, or null if none
 * @param serving whether its owner confirmed that it serves it (only such partitions are moved)
 */
public record Placement(String owner, boolean serving) {

    public Placement {
        if (serving && owner == null) {
            throw new IllegalArgumentException("a serving partition has an owner");
        }
    }
}

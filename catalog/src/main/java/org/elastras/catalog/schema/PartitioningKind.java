package org.elastras.catalog.schema;

/**
 * How a database is split into partitions. Immutable.
 */
public enum PartitioningKind {
    /** The whole database is one partition (a tenant); its tables are PLAIN or GLOBAL. */
    SINGLE_PARTITION,
    /**
     * Range-partitioned on the key of exactly one ROOT table; the other tables are CHILD (keys start
     * with the root key, so related rows share a partition) or GLOBAL.
     */
    TREE
}

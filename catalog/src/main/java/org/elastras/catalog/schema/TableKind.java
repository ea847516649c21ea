package org.elastras.catalog.schema;

/**
 * The role a table plays in how its database is partitioned. Immutable.
 */
public enum TableKind {
    /** The root of a tree-partitioned database: its primary key is the partition key. */
    ROOT,
    /** A table of a tree-partitioned database whose primary key starts with the root table's key. */
    CHILD,
    /** A read-mostly table kept whole, once per OTM serving any partition of its database. */
    GLOBAL,
    /** A table of a single-partition (tenant) database. */
    PLAIN
}

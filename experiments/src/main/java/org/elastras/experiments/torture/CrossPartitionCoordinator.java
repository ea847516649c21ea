package org.elastras.experiments.torture;

/**
 * Which of its two partitions a cross-partition bank transfer is begun on, and so which one
 * coordinates it (the other holds its branch). Immutable.
 */
enum CrossPartitionCoordinator {
    /** The source account's partition: any two partitions coordinate transactions with branches on each other. */
    SOURCE,
    /**
     * The lower-numbered partition, whichever way the money goes: a partition only ever holds
     * branches of transactions coordinated by lower ones, so the "asks the outcome of" relation
     * between partitions has no cycle.
     */
    LOWER;

    /** The partition (0-based) a transfer from partition {@code from} to partition {@code to} is begun on. */
    int of(int from, int to) {
        return this == SOURCE ? from : Math.min(from, to);
    }

    static CrossPartitionCoordinator parse(String name) {
        for (CrossPartitionCoordinator c : values()) {
            if (c.name().equalsIgnoreCase(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--cross-partition-coordinator must be source or lower, got '" + name + "'");
    }
}

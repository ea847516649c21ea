package org.elastras.master.cluster;

/**
 * A partition as the admin API shows it: its record and what the master is doing with it. Immutable.
 */
public record PartitionView(PartitionRecord record, PartitionState state) {
}

package org.elastras.catalog.partition;

/**
 * The identifier a partition gets when it is created, unique across the system and never reused.
 * Immutable.
 *
 * @param value the identifier, not negative
 */
public record PartitionId(long value) implements Comparable<PartitionId> {

    public PartitionId {
        if (value < 0) {
            throw new IllegalArgumentException("partition id must not be negative, got " + value);
        }
    }

    /** The identifier after this one. */
    public PartitionId next() {
        return new PartitionId(Math.addExact(value, 1));
    }

    @Override
    public int compareTo(PartitionId other) {
        return Long.compare(value, other.value);
    }

    @Override
    public String toString() {
        return "p" + value;
    }
}

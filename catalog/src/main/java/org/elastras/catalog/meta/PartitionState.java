package org.elastras.catalog.meta;

/**
 * The lifecycle state of a partition as the catalog records it. Immutable.
 *
 * <p>The persisted form is {@link #code()}, never the ordinal. States with an owner name the OTM that
 * holds (or is taking, or is giving up) the partition; the others have none.
 */
public enum PartitionState {
    /** Not assigned to any OTM. */
    UNASSIGNED(0, false),
    /** Assigned; the owner is opening (recovering) it. */
    OPENING(1, true),
    /** Served by the owner. */
    OPEN(2, true),
    /** The owner is flushing and closing it. */
    CLOSING(3, true),
    /** The owner is handing it to another OTM. */
    MOVING(4, true),
    /** Taken offline by an administrator; not served. */
    OFFLINE(5, false);

    private final int code;
    private final boolean hasOwner;

    PartitionState(int code, boolean hasOwner) {
        this.code = code;
        this.hasOwner = hasOwner;
    }

    /** The stable persisted code. */
    public int code() {
        return code;
    }

    /** Whether a partition in this state has an owner OTM. */
    public boolean hasOwner() {
        return hasOwner;
    }

    /**
     * The state with persisted code {@code code}.
     *
     * @throws IllegalArgumentException if no state has it
     */
    public static PartitionState fromCode(int code) {
        for (PartitionState s : values()) {
            if (s.code == code) {
                return s;
            }
        }
        throw new IllegalArgumentException("no partition state has code " + code);
    }
}

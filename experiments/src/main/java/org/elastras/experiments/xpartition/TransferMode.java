package org.elastras.experiments.xpartition;

/** Where a benchmark transfer finds its second account. Immutable. */
enum TransferMode {
    /** Both accounts in the first partition: one OTM, one WAL record, no coordination. */
    SINGLE_PARTITION("single-partition"),
    /**
     * The second account in the second partition, owned by another OTM: a branch there, then the
     * coordinated commit (prepare, vote with a durable prepare record, decision record, decide).
     */
    CROSS_PARTITION("cross-partition");

    private final String label;

    TransferMode(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }
}

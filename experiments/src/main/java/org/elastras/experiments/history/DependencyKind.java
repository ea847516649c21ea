package org.elastras.experiments.history;

/** The kind of an edge {@code Ti -> Tj} of the dependency graph: why Ti must come before Tj. */
public enum DependencyKind {
    /** Write-write: Tj installed the version of a key that follows Ti's. */
    WW("ww"),
    /** Write-read: Tj read a version Ti installed. */
    WR("wr"),
    /** Read-write (anti-dependency): Ti read a version of a key and Tj installed the next one. */
    RW("rw"),
    /** Session order: Ti and Tj are committed transactions of the same process, Ti first. */
    SESSION("session");

    private final String label;

    DependencyKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    int bit() {
        return 1 << ordinal();
    }
}

package org.elastras.experiments.history;

/**
 * The anomalies the {@link HistoryChecker} reports, with the definition each is checked by.
 * Cycle classes are cycles in the dependency graph over committed transactions, whose edges are
 * {@link DependencyKind}s (Adya's ww, wr, rw, plus session order).
 */
public enum AnomalyClass {
    /** A read returned a list holding the same value twice: an append was applied twice. */
    DUPLICATE_ELEMENTS("duplicate elements", "a read returned the same appended value more than once"),
    /**
     * Within one committed transaction, a read of a key disagrees with what the transaction itself
     * read and wrote before: it misses its own writes (list: the read must end with the appends made
     * since its last read of the key, and equal the last read plus those appends; register: the
     * last value it wrote), or two reads with no write between differ (a snapshot read is repeatable).
     */
    INTERNAL("internal inconsistency", "a read disagrees with the same transaction's earlier reads and writes of the key"),
    /** A read returned a value that no transaction of the history ever wrote. */
    GARBAGE_READ("garbage read", "a read returned a value that no transaction wrote"),
    /** Two reads of a list key where neither is a prefix of the other: no single order of appends explains both. */
    INCOMPATIBLE_ORDER("incompatible order", "two reads of a list are not prefixes of one another"),
    /** Adya G1a: a committed transaction read a value written by a transaction that definitely aborted. */
    G1A("G1a (aborted read)", "a committed transaction read a write of an aborted transaction"),
    /** Adya G1b: a committed transaction read a value its writer later overwrote or appended past in the same transaction. */
    G1B("G1b (intermediate read)", "a committed transaction read a version that was not its writer's final one"),
    /**
     * Two committed transactions both read the same version of a key (before writing it themselves)
     * and both wrote the key: one overwrote the other without seeing it. Forbidden by
     * first-updater-wins.
     */
    LOST_UPDATE("lost update", "two committed transactions read the same version of a key and both wrote it"),
    /**
     * Strong session order broken: a process's committed transaction does not observe a write of
     * the same process's earlier committed transaction, or (when the server reports timestamps)
     * started at a snapshot below that earlier transaction's CTS.
     */
    SESSION_ORDER("session order violation", "a transaction did not observe its own session's earlier committed write"),
    /** Adya G0: a cycle of write-write edges (session-order edges may close it). */
    G0("G0 (write cycle)", "a cycle of ww (and session-order) edges"),
    /** Adya G1c: a cycle of ww and wr edges with at least one wr (session-order edges may close it). */
    G1C("G1c (circular information flow)", "a cycle of ww/wr edges with at least one wr"),
    /** Adya G-single (read skew): a cycle with exactly one rw edge; forbidden by SI (it is G-SIb in the DSG). */
    G_SINGLE("G-single (read skew)", "a cycle with exactly one rw (anti-dependency) edge"),
    /**
     * A long fork: the cycle {@code W1 -wr-> R1 -rw-> W2 -wr-> R2 -rw-> W1}: two readers saw two
     * independent writes in opposite orders. A special case of {@link #G_NONADJACENT}.
     */
    LONG_FORK("long fork", "two readers observed two independent writes in different orders"),
    /**
     * A cycle with two or more rw edges of which no two are adjacent (cyclically). Every cycle of
     * a snapshot-isolated history has two adjacent rw edges (Fekete et al. 2005; Cerone and
     * Gotsman 2016), so this is a snapshot-isolation violation that is neither G-single nor a long fork.
     */
    G_NONADJACENT("G-nonadjacent (SI cycle)", "a cycle with rw edges of which no two are adjacent"),
    /**
     * Adya G-SIa (interference), witnessed by the server's timestamps: a ww or wr edge
     * {@code Ti -> Tj} where {@code cts(Ti) > snapshot(Tj)}: Tj read or overwrote a write that its
     * snapshot does not contain.
     */
    G_SIA("G-SIa (interference)", "a transaction read or overwrote a write its snapshot does not contain"),
    /**
     * Adya G-SIb (missed effects), witnessed by the server's timestamps: an rw edge
     * {@code Ti -> Tj} where {@code cts(Tj) <= snapshot(Ti)}: Ti missed a write its snapshot contains.
     * (G-SIb cycles without timestamps are reported as {@link #G_SINGLE}.)
     */
    G_SIB("G-SIb (missed effects)", "a transaction missed a write that its snapshot contains"),
    /**
     * Adya G2-item: a cycle with rw edges, at least two of them adjacent (write skew and the like).
     * Allowed under SNAPSHOT, forbidden under SERIALIZABLE.
     */
    G2_ITEM("G2-item (anti-dependency cycle)", "a cycle with two adjacent rw edges, e.g. write skew");

    private final String title;
    private final String definition;

    AnomalyClass(String title, String definition) {
        this.title = title;
        this.definition = definition;
    }

    public String title() {
        return title;
    }

    public String definition() {
        return definition;
    }

    /** True if a history claiming {@code level} must not contain this anomaly. */
    public boolean forbiddenUnder(IsolationLevel level) {
        return this != G2_ITEM || level == IsolationLevel.SERIALIZABLE;
    }
}

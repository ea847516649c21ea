package org.elastras.experiments.history;

/**
 * The shape of cycle one anomaly class looks for, as a small automaton over the kinds of the
 * cycle's edges: a cycle matches if it starts with an edge of {@link #startKind()}, every further
 * edge is accepted by {@link #next}, and the state after the last edge {@link #accepts}. The
 * start kind is one the cycle must contain, so every match is found by starting at such an edge.
 * Immutable.
 */
enum CyclePattern {
    /** ww and session edges only; a cycle needs a ww edge (session order alone is acyclic). */
    G0(DependencyKind.WW, 1) {
        @Override
        int next(int state, DependencyKind kind) {
            return kind == DependencyKind.WW || kind == DependencyKind.SESSION ? 0 : REJECT;
        }

        @Override
        boolean accepts(int state) {
            return true;
        }
    },
    /** ww, wr and session edges, through at least one wr edge. */
    G1C(DependencyKind.WR, 1) {
        @Override
        int next(int state, DependencyKind kind) {
            return kind == DependencyKind.RW ? REJECT : 0;
        }

        @Override
        boolean accepts(int state) {
            return true;
        }
    },
    /** Exactly one rw edge: the start edge; every other edge is ww, wr or session. */
    G_SINGLE(DependencyKind.RW, 1) {
        @Override
        int next(int state, DependencyKind kind) {
            return kind == DependencyKind.RW ? REJECT : 0;
        }

        @Override
        boolean accepts(int state) {
            return true;
        }
    },
    /**
     * Two or more rw edges, no two adjacent (the start edge counts as following the last).
     * State bits: 1 = the last edge was rw, 2 = two or more rw edges seen.
     */
    G_NONADJACENT(DependencyKind.RW, 4) {
        @Override
        int startState() {
            return 1;
        }

        @Override
        int next(int state, DependencyKind kind) {
            if (kind != DependencyKind.RW) {
                return state & 2;
            }
            return (state & 1) != 0 ? REJECT : 3;
        }

        @Override
        boolean accepts(int state) {
            return state == 2;
        }
    },
    /**
     * At least one pair of adjacent rw edges (the start edge counts as following the last).
     * State bits: 1 = the last edge was rw, 2 = two adjacent rw edges seen.
     */
    G2_ADJACENT(DependencyKind.RW, 4) {
        @Override
        int startState() {
            return 1;
        }

        @Override
        int next(int state, DependencyKind kind) {
            if (kind != DependencyKind.RW) {
                return state & 2;
            }
            return (state & 1) != 0 ? 3 : (state & 2) | 1;
        }

        @Override
        boolean accepts(int state) {
            return state != 0;
        }
    };

    static final int REJECT = -1;

    private final DependencyKind startKind;
    private final int states;

    CyclePattern(DependencyKind startKind, int states) {
        this.startKind = startKind;
        this.states = states;
    }

    DependencyKind startKind() {
        return startKind;
    }

    /** Number of states, 0 to states()-1. */
    int states() {
        return states;
    }

    /** The state after the start edge. */
    int startState() {
        return 0;
    }

    /** The state after an edge of {@code kind} taken in {@code state}, or {@link #REJECT}. */
    abstract int next(int state, DependencyKind kind);

    /** True if a cycle may close in {@code state}. */
    abstract boolean accepts(int state);
}

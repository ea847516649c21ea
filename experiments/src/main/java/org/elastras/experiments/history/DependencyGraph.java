package org.elastras.experiments.history;

import java.util.Arrays;

/**
 * The dependency graph over a history's transactions, nodes numbered 0 to n-1, in compressed
 * adjacency form: each ordered pair of nodes has at most one edge, carrying the set of
 * {@link DependencyKind}s between them and, per kind, one key that justifies it. Immutable once
 * built; build with {@link Builder}.
 */
final class DependencyGraph {

    private static final int KINDS = DependencyKind.values().length;

    private final int nodes;
    /** Edges of node u are at indices offsets[u] to offsets[u+1]-1, targets ascending. */
    private final int[] offsets;
    private final int[] targets;
    /** Bit set of DependencyKind.bit() per edge. */
    private final byte[] kinds;
    /** Per edge and kind (index edge * KINDS + kind ordinal): a key that justifies it, or null. */
    private final String[] keys;

    private DependencyGraph(int nodes, int[] offsets, int[] targets, byte[] kinds, String[] keys) {
        this.nodes = nodes;
        this.offsets = offsets;
        this.targets = targets;
        this.kinds = kinds;
        this.keys = keys;
    }

    int nodes() {
        return nodes;
    }

    int edges() {
        return targets.length;
    }

    int firstEdge(int node) {
        return offsets[node];
    }

    int endEdge(int node) {
        return offsets[node + 1];
    }

    int target(int edge) {
        return targets[edge];
    }

    boolean has(int edge, DependencyKind kind) {
        return (kinds[edge] & kind.bit()) != 0;
    }

    String key(int edge, DependencyKind kind) {
        return keys[edge * KINDS + kind.ordinal()];
    }

    /**
     * Collects edges; not thread-safe. Self-edges are ignored: a transaction does not depend on
     * itself. Edges live in growable primitive arrays, found by an open-addressing table keyed by
     * {@code from * nodes + to}, because a 100k-transaction history has several hundred thousand.
     */
    static final class Builder {
        private static final long EMPTY = -1;

        private final int nodes;
        /** Open addressing, linear probing: the pair in each slot (EMPTY if none) and its edge number. */
        private long[] slotPairs = newSlots(64);
        private int[] slotEdges = new int[64];
        private int edges;
        private long[] pairs = new long[64];
        private byte[] kinds = new byte[64];
        private String[] keys = new String[64 * KINDS];

        Builder(int nodes) {
            if (nodes < 0) {
                throw new IllegalArgumentException("nodes must be >= 0, got " + nodes);
            }
            this.nodes = nodes;
        }

        void add(int from, int to, DependencyKind kind, String key) {
            if (from < 0 || from >= nodes || to < 0 || to >= nodes) {
                throw new IllegalStateException("edge " + from + " -> " + to + " outside 0.." + (nodes - 1));
            }
            if (from == to) {
                return;
            }
            int edge = findOrAdd((long) from * nodes + to);
            kinds[edge] |= (byte) kind.bit();
            if (keys[edge * KINDS + kind.ordinal()] == null) {
                keys[edge * KINDS + kind.ordinal()] = key;
            }
        }

        DependencyGraph build() {
            long[] sorted = Arrays.copyOf(pairs, edges);
            Arrays.sort(sorted);
            int[] offsets = new int[nodes + 1];
            int[] targets = new int[edges];
            byte[] sortedKinds = new byte[edges];
            String[] sortedKeys = new String[edges * KINDS];
            for (int e = 0; e < edges; e++) {
                int from = (int) (sorted[e] / nodes);
                offsets[from + 1]++;
                targets[e] = (int) (sorted[e] % nodes);
                int edge = find(sorted[e]);
                sortedKinds[e] = kinds[edge];
                System.arraycopy(keys, edge * KINDS, sortedKeys, e * KINDS, KINDS);
            }
            for (int u = 0; u < nodes; u++) {
                offsets[u + 1] += offsets[u];
            }
            return new DependencyGraph(nodes, offsets, targets, sortedKinds, sortedKeys);
        }

        private int find(long pair) {
            int mask = slotPairs.length - 1;
            for (int slot = hash(pair) & mask; ; slot = (slot + 1) & mask) {
                if (slotPairs[slot] == pair) {
                    return slotEdges[slot];
                }
                if (slotPairs[slot] == EMPTY) {
                    throw new IllegalStateException("edge " + pair + " not in the table");
                }
            }
        }

        private int findOrAdd(long pair) {
            if (2 * (edges + 1) > slotPairs.length) {
                grow();
            }
            int mask = slotPairs.length - 1;
            int slot = hash(pair) & mask;
            while (slotPairs[slot] != EMPTY) {
                if (slotPairs[slot] == pair) {
                    return slotEdges[slot];
                }
                slot = (slot + 1) & mask;
            }
            if (edges == pairs.length) {
                pairs = Arrays.copyOf(pairs, 2 * edges);
                kinds = Arrays.copyOf(kinds, 2 * edges);
                keys = Arrays.copyOf(keys, 2 * edges * KINDS);
            }
            slotPairs[slot] = pair;
            slotEdges[slot] = edges;
            pairs[edges] = pair;
            return edges++;
        }

        private void grow() {
            long[] oldPairs = slotPairs;
            int[] oldEdges = slotEdges;
            slotPairs = newSlots(2 * oldPairs.length);
            slotEdges = new int[2 * oldPairs.length];
            int mask = slotPairs.length - 1;
            for (int i = 0; i < oldPairs.length; i++) {
                if (oldPairs[i] != EMPTY) {
                    int slot = hash(oldPairs[i]) & mask;
                    while (slotPairs[slot] != EMPTY) {
                        slot = (slot + 1) & mask;
                    }
                    slotPairs[slot] = oldPairs[i];
                    slotEdges[slot] = oldEdges[i];
                }
            }
        }

        private static long[] newSlots(int size) {
            long[] slots = new long[size];
            Arrays.fill(slots, EMPTY);
            return slots;
        }

        /** Fibonacci hashing: spreads consecutive pairs over the table. */
        private static int hash(long pair) {
            return (int) ((pair * 0x9E3779B97F4A7C15L) >>> 32);
        }
    }
}

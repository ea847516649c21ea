package org.elastras.experiments.history;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

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

    /** Collects edges; not thread-safe. Self-edges are ignored: a transaction does not depend on itself. */
    static final class Builder {
        private final int nodes;
        private final Map<Long, Edge> edges = new HashMap<>();

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
            // from * nodes + to, not from << 32 | to: Long.hashCode of the latter is from ^ to, which collides badly.
            Edge edge = edges.computeIfAbsent((long) from * nodes + to, k -> new Edge());
            edge.kinds |= kind.bit();
            if (edge.keys[kind.ordinal()] == null) {
                edge.keys[kind.ordinal()] = key;
            }
        }

        DependencyGraph build() {
            long[] pairs = new long[edges.size()];
            int i = 0;
            for (Long pair : edges.keySet()) {
                pairs[i++] = pair;
            }
            Arrays.sort(pairs);
            int[] offsets = new int[nodes + 1];
            int[] targets = new int[pairs.length];
            byte[] kinds = new byte[pairs.length];
            String[] keys = new String[pairs.length * KINDS];
            for (int e = 0; e < pairs.length; e++) {
                int from = (int) (pairs[e] / nodes);
                offsets[from + 1]++;
                targets[e] = (int) (pairs[e] % nodes);
                Edge edge = edges.get(pairs[e]);
                kinds[e] = (byte) edge.kinds;
                System.arraycopy(edge.keys, 0, keys, e * KINDS, KINDS);
            }
            for (int u = 0; u < nodes; u++) {
                offsets[u + 1] += offsets[u];
            }
            return new DependencyGraph(nodes, offsets, targets, kinds, keys);
        }

        private static final class Edge {
            int kinds;
            final String[] keys = new String[KINDS];
        }
    }
}

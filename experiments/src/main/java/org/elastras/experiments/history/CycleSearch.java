package org.elastras.experiments.history;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Finds short cycles of a given {@link CyclePattern} in a {@link DependencyGraph}. It splits the
 * graph into strongly connected components once (Tarjan, iteratively, so deep graphs do not
 * overflow the stack); every cycle lies inside one component. Per component and pattern it
 * tries start edges of the pattern's start kind and runs a breadth-first search over
 * (node, automaton state) inside the component from the start edge's target back to its source,
 * so the cycle found from a start edge is a shortest matching one. Work is bounded: at most
 * {@code startEdgesPerComponentMax} searches per component and pattern, and at most one cycle per
 * component and pattern. Not thread-safe; one search at a time.
 */
final class CycleSearch {

    /** The order in which an edge's kinds are tried: dependencies before anti-dependencies, wr first so long forks show as such. */
    private static final DependencyKind[] KIND_ORDER = {DependencyKind.WR, DependencyKind.WW, DependencyKind.SESSION, DependencyKind.RW};

    /** One edge of a found cycle, by node number. */
    record Step(int from, DependencyKind kind, String key, int to) {
    }

    private final DependencyGraph graph;
    /** Component number of each node. */
    private final int[] component;
    /** The nodes of every component with more than one node, each ascending; components in order of their smallest node. */
    private final List<int[]> cyclicComponents;

    CycleSearch(DependencyGraph graph) {
        this.graph = graph;
        this.component = new int[graph.nodes()];
        this.cyclicComponents = new ArrayList<>();
        findComponents();
    }

    /** Number of components that hold a cycle. */
    int cyclicComponentCount() {
        return cyclicComponents.size();
    }

    /** Up to {@code cyclesMax} cycles matching {@code pattern}, at most one per component. */
    List<List<Step>> find(CyclePattern pattern, int cyclesMax, int startEdgesPerComponentMax) {
        List<List<Step>> cycles = new ArrayList<>();
        if (cyclicComponents.isEmpty() || cyclesMax <= 0) {
            return cycles;
        }
        Bfs bfs = new Bfs(pattern);
        for (int[] nodes : cyclicComponents) {
            if (cycles.size() >= cyclesMax) {
                break;
            }
            List<Step> cycle = findInComponent(pattern, nodes, startEdgesPerComponentMax, bfs);
            if (cycle != null) {
                cycles.add(cycle);
            }
        }
        return cycles;
    }

    private List<Step> findInComponent(CyclePattern pattern, int[] nodes, int startEdgesMax, Bfs bfs) {
        int attempts = 0;
        for (int u : nodes) {
            for (int e = graph.firstEdge(u); e < graph.endEdge(u); e++) {
                int v = graph.target(e);
                if (component[v] != component[u] || !graph.has(e, pattern.startKind())) {
                    continue;
                }
                if (attempts++ >= startEdgesMax) {
                    return null;
                }
                List<Step> path = bfs.path(v, u, component[u]);
                if (path != null) {
                    List<Step> cycle = new ArrayList<>(path.size() + 1);
                    cycle.add(new Step(u, pattern.startKind(), graph.key(e, pattern.startKind()), v));
                    cycle.addAll(path);
                    return cycle;
                }
            }
        }
        return null;
    }

    /** Breadth-first search over (node, state) pairs, reusing its arrays across searches by stamping them. */
    private final class Bfs {
        private final CyclePattern pattern;
        private final int states;
        private final int[] visitedStamp;
        private final int[] parent;
        private final int[] parentEdge;
        private final byte[] parentKind;
        private final int[] queue;
        private int stamp;

        Bfs(CyclePattern pattern) {
            this.pattern = pattern;
            this.states = pattern.states();
            int size = Math.multiplyExact(graph.nodes(), states);
            this.visitedStamp = new int[size];
            this.parent = new int[size];
            this.parentEdge = new int[size];
            this.parentKind = new byte[size];
            this.queue = new int[size];
        }

        /** The steps of a shortest path from {@code start} to {@code goal} inside component {@code within}, or null. */
        List<Step> path(int start, int goal, int within) {
            stamp++;
            int head = 0;
            int tail = 0;
            int first = start * states + pattern.startState();
            visitedStamp[first] = stamp;
            parent[first] = -1;
            queue[tail++] = first;
            while (head < tail) {
                int current = queue[head++];
                int node = current / states;
                int state = current % states;
                if (node == goal) {
                    continue; // reached in a state that does not accept; a simple cycle does not pass through its start
                }
                for (int e = graph.firstEdge(node); e < graph.endEdge(node); e++) {
                    int next = graph.target(e);
                    if (component[next] != within) {
                        continue;
                    }
                    for (DependencyKind kind : KIND_ORDER) {
                        if (!graph.has(e, kind)) {
                            continue;
                        }
                        int nextState = pattern.next(state, kind);
                        if (nextState == CyclePattern.REJECT) {
                            continue;
                        }
                        int product = next * states + nextState;
                        if (visitedStamp[product] == stamp) {
                            continue;
                        }
                        visitedStamp[product] = stamp;
                        parent[product] = current;
                        parentEdge[product] = e;
                        parentKind[product] = (byte) kind.ordinal();
                        if (next == goal && pattern.accepts(nextState)) {
                            return unwind(product);
                        }
                        queue[tail++] = product;
                    }
                }
            }
            return null;
        }

        private List<Step> unwind(int product) {
            List<Step> steps = new ArrayList<>();
            for (int at = product; parent[at] != -1; at = parent[at]) {
                DependencyKind kind = DependencyKind.values()[parentKind[at]];
                steps.add(new Step(parent[at] / states, kind, graph.key(parentEdge[at], kind), at / states));
            }
            java.util.Collections.reverse(steps);
            return steps;
        }
    }

    /** Tarjan's strongly connected components, with an explicit stack. */
    private void findComponents() {
        int n = graph.nodes();
        int[] index = new int[n];
        int[] lowLink = new int[n];
        boolean[] onStack = new boolean[n];
        Arrays.fill(index, -1);
        int[] stack = new int[n];
        int stackSize = 0;
        int[] callNode = new int[n];
        int[] callEdge = new int[n];
        int nextIndex = 0;
        int components = 0;
        for (int root = 0; root < n; root++) {
            if (index[root] != -1) {
                continue;
            }
            int depth = 0;
            callNode[0] = root;
            callEdge[0] = graph.firstEdge(root);
            index[root] = lowLink[root] = nextIndex++;
            stack[stackSize++] = root;
            onStack[root] = true;
            while (depth >= 0) {
                int node = callNode[depth];
                if (callEdge[depth] < graph.endEdge(node)) {
                    int next = graph.target(callEdge[depth]++);
                    if (index[next] == -1) {
                        index[next] = lowLink[next] = nextIndex++;
                        stack[stackSize++] = next;
                        onStack[next] = true;
                        depth++;
                        callNode[depth] = next;
                        callEdge[depth] = graph.firstEdge(next);
                    } else if (onStack[next]) {
                        lowLink[node] = Math.min(lowLink[node], index[next]);
                    }
                    continue;
                }
                if (lowLink[node] == index[node]) {
                    int size = 0;
                    int member;
                    do {
                        member = stack[--stackSize];
                        onStack[member] = false;
                        component[member] = components;
                        size++;
                    } while (member != node);
                    if (size > 1) {
                        int[] nodes = Arrays.copyOfRange(stack, stackSize, stackSize + size);
                        Arrays.sort(nodes);
                        cyclicComponents.add(nodes);
                    }
                    components++;
                }
                depth--;
                if (depth >= 0) {
                    int caller = callNode[depth];
                    lowLink[caller] = Math.min(lowLink[caller], lowLink[node]);
                }
            }
        }
        cyclicComponents.sort((a, b) -> Integer.compare(a[0], b[0]));
    }
}

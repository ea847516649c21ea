package org.elastras.experiments.history;

/**
 * One edge of a reported cycle: {@code from -kind-> to}, justified by {@code key} (null for
 * session-order edges). Immutable.
 */
public record CycleStep(long from, DependencyKind kind, String key, long to) {

    @Override
    public String toString() {
        return "T" + from + " -" + kind.label() + (key == null ? "" : "(" + key + ")") + "-> T" + to;
    }
}

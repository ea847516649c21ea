package org.elastras.experiments.history;

import java.util.List;
import java.util.Objects;

/**
 * One anomaly found in a history: its class, the transactions involved (for a cycle, in cycle
 * order), the cycle's edges (empty for anomalies that are not cycles), and a human-readable
 * explanation that names the transactions and what they did. Immutable.
 */
public record Anomaly(AnomalyClass type, List<Long> transactionIds, List<CycleStep> cycle, String explanation) {

    public Anomaly {
        Objects.requireNonNull(type, "type");
        transactionIds = List.copyOf(transactionIds);
        cycle = List.copyOf(cycle);
        Objects.requireNonNull(explanation, "explanation");
    }

    @Override
    public String toString() {
        return type.title() + ": " + explanation;
    }
}

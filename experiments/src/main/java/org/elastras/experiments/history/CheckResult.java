package org.elastras.experiments.history;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the {@link HistoryChecker} found in one history. Immutable.
 *
 * @param isolation             the level the history claimed
 * @param anomalies             the anomalies reported, by class (at most the checker's bound per class)
 * @param counts                how many anomalies of each class were found (at least as many as reported)
 * @param transactions          transactions in the history
 * @param committedTransactions transactions taken as committed: the OK ones and the UNKNOWN ones whose writes were observed
 * @param truncated             the history was truncated, so garbage reads were not checked
 */
public record CheckResult(IsolationLevel isolation, Map<AnomalyClass, List<Anomaly>> anomalies, Map<AnomalyClass, Integer> counts,
        int transactions, int committedTransactions, boolean truncated) {

    public CheckResult {
        Objects.requireNonNull(isolation, "isolation");
        EnumMap<AnomalyClass, List<Anomaly>> anomaliesCopy = new EnumMap<>(AnomalyClass.class);
        anomalies.forEach((type, list) -> {
            if (!list.isEmpty()) {
                anomaliesCopy.put(type, List.copyOf(list));
            }
        });
        anomalies = Collections.unmodifiableMap(anomaliesCopy);
        EnumMap<AnomalyClass, Integer> countsCopy = new EnumMap<>(AnomalyClass.class);
        counts.forEach((type, count) -> {
            if (count > 0) {
                countsCopy.put(type, count);
            }
        });
        counts = Collections.unmodifiableMap(countsCopy);
        for (AnomalyClass type : anomalies.keySet()) {
            if (counts.getOrDefault(type, 0) < anomalies.get(type).size()) {
                throw new IllegalArgumentException("count of " + type + " is below the anomalies reported");
            }
        }
    }

    /** True if the history shows no anomaly that its claimed isolation level forbids. */
    public boolean valid() {
        return forbiddenFound().isEmpty();
    }

    /** The classes found that the claimed level forbids, in declaration order. */
    public List<AnomalyClass> forbiddenFound() {
        List<AnomalyClass> forbidden = new ArrayList<>();
        for (AnomalyClass type : counts.keySet()) {
            if (type.forbiddenUnder(isolation)) {
                forbidden.add(type);
            }
        }
        return forbidden;
    }

    /** The anomalies of one class, possibly empty. */
    public List<Anomaly> anomalies(AnomalyClass type) {
        return anomalies.getOrDefault(type, List.of());
    }

    /** Every class found, allowed or not. */
    public java.util.Set<AnomalyClass> classesFound() {
        return counts.keySet();
    }

    /** A report for people: the verdict, then each class found with its anomalies. */
    public String render() {
        StringBuilder text = new StringBuilder();
        text.append(valid() ? "VALID" : "INVALID").append(" for ").append(isolation).append(": ").append(transactions)
                .append(" transactions, ").append(committedTransactions).append(" taken as committed");
        if (truncated) {
            text.append(" (history truncated by the recorder: garbage reads not checked)");
        }
        text.append('\n');
        for (Map.Entry<AnomalyClass, Integer> entry : counts.entrySet()) {
            AnomalyClass type = entry.getKey();
            text.append('\n').append(type.title()).append(": ").append(entry.getValue()).append(" found")
                    .append(type.forbiddenUnder(isolation) ? "" : " (allowed under " + isolation + ")").append(" - ")
                    .append(type.definition()).append('\n');
            for (Anomaly anomaly : anomalies(type)) {
                text.append("  * ").append(anomaly.explanation().replace("\n", "\n    ")).append('\n');
            }
        }
        return text.toString();
    }
}

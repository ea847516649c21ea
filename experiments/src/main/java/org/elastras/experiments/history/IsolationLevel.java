package org.elastras.experiments.history;

/**
 * The isolation level a history claims for all its transactions. It decides which anomaly
 * classes make the history invalid (see {@link AnomalyClass#forbiddenUnder(IsolationLevel)}).
 */
public enum IsolationLevel {
    /** Snapshot isolation with first-updater-wins and strong session order: write skew (G2-item) is allowed. */
    SNAPSHOT,
    /** Serializable (not strict: real-time order is not promised), with strong session order. */
    SERIALIZABLE
}

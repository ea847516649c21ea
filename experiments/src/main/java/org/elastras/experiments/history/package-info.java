/**
 * Transaction histories and their checker: a {@link org.elastras.experiments.history.HistoryRecorder}
 * that workload threads call around each transaction, the immutable
 * {@link org.elastras.experiments.history.History} it produces, a JSON-lines form of it
 * ({@link org.elastras.experiments.history.HistoryJsonLines}) so that a failing history can be kept
 * and re-checked, and the {@link org.elastras.experiments.history.HistoryChecker}, which infers a
 * dependency graph from what transactions read and wrote and reports the anomalies of DESIGN.md
 * invariant 3 (Adya's G0, G1a, G1b, G1c, G-single, G-SIa, G-SIb, G2-item, plus lost update, long
 * fork, the other snapshot-isolation cycles, session order, and garbage, duplicate and internally
 * inconsistent reads). The command line {@link org.elastras.experiments.history.HistoryCheck}
 * checks a saved history. Everything here is pure logic: no clock of its own (the recorder is
 * given one), no threads, no randomness.
 */
package org.elastras.experiments.history;

package org.elastras.experiments.torture;

/**
 * One fault injected in a torture run. Immutable.
 *
 * @param index       0, 1, 2, ... in injection order
 * @param kind        what was done
 * @param target      the process it was done to (an OTM or master id)
 * @param replacement the process started in its place
 * @param startNanos  when the fault began (System.nanoTime)
 * @param endNanos    when the injector was done with it: the replacement started, a master active again
 * @param recoveryMs  for a master kill (alone or with a pause): until another master announced
 *                    itself active; for a pause: how long the OTM was stopped; for a session expiry:
 *                    until the master had moved the OTM's partitions; for an OTM kill: 0
 */
record FaultEvent(int index, FaultKind kind, String target, String replacement, long startNanos, long endNanos, long recoveryMs) {
}

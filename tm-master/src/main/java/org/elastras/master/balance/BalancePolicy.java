package org.elastras.master.balance;

/**
 * Decides which partitions to move and whether to add or remove OTMs, from the load and the
 * placement the master passes in. Implementations are plain logic: no IO, no clock of their own,
 * the same input always gives the same plan. Called from the master's event loop thread.
 */
public interface BalancePolicy {

    /** The plan for this moment; an empty plan when nothing should change. */
    BalancePlan plan(BalanceInput input);
}

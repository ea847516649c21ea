package org.elastras.master.balance;

import java.util.concurrent.CompletableFuture;

/**
 * Adds and removes OTMs for elasticity: starts a new OTM process (or machine), and stops one the
 * master has drained. The master decides; a provisioner only carries out, asynchronously, so the
 * master's event loop never waits on it. Implementations are thread-safe.
 *
 * <p>Bounded: at most {@link #pendingMax()} requests are under way; one more fails at once with
 * a {@link ProvisioningException}. Every failure (refused, the OTM did not start in time, it could
 * not be stopped) completes the future exceptionally with a {@link ProvisioningException} saying
 * what went wrong; nothing is retried behind the caller's back.
 */
public interface Provisioner extends AutoCloseable {

    /**
     * Starts a new OTM under a fresh id. The future completes with the id once the OTM is up
     * (it holds its lease and will report to the active master); the master learns of it through
     * ZooKeeper like any other OTM.
     */
    CompletableFuture<String> addOtm();

    /**
     * Stops OTM {@code otmId}, which the master has drained (it serves nothing): it closes cleanly,
     * giving up its lease. The future completes once it has ended.
     */
    CompletableFuture<Void> removeOtm(String otmId);

    /** Requests under way now. */
    int pending();

    /** Most requests under way at once. */
    int pendingMax();

    /** Stops taking requests; what it started keeps running unless the implementation says otherwise. */
    @Override
    void close();
}

package org.elastras.master.local;

import java.io.PrintStream;

/**
 * A workload that {@code elastras local} runs next to its demo, found on the class path with
 * {@link java.util.ServiceLoader} (the experiments module provides TPC-C: {@code bin/elastras
 * local} runs with its class path). It creates and loads its own database through the cluster and
 * keeps a light load running until closed.
 *
 * <p>Implementations need a public no-argument constructor; {@link #start} is called once, then
 * {@link #status} from the status thread, then {@link #close}.
 */
public interface LocalWorkload extends AutoCloseable {

    /** Its name for {@code --workloads} and the status line ("tpcc"). */
    String name();

    /**
     * Creates and loads its database in the cluster at {@code zkConnect} and starts its clients,
     * printing what it did on {@code out}.
     *
     * @param scale how big (TPC-C: warehouses), at least 1
     * @param rateTxnPerSecond the most transactions per second it may run, at least 1
     */
    void start(String zkConnect, int scale, int rateTxnPerSecond, PrintStream out) throws Exception;

    /** One short fragment for the status line ("tpcc 19.8 txn/s, 0 failed, consistent"). */
    String status();

    /** Stops its clients (promptly: a few seconds at most) and releases what it holds. Idempotent. */
    @Override
    void close();
}

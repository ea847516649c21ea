package org.elastras.experiments.otm;

/**
 * A system the benchmark drives: something that runs the read-ten-write-five transaction of
 * {@link ItemTable} for a client thread. Implementations are thread-safe; each
 * {@link Session} is used by one client thread only.
 */
interface TransactionTarget {

    /** Short name for tables and files, e.g. {@code otm-shared-client}. */
    String name();

    /** What the name does not say: client, isolation, durability. */
    String description();

    /** Rows one committed transaction adds 1 to the balance of (for the after-run check). */
    int writesPerTransaction();

    /** A connection for one client thread. */
    Session openSession() throws Exception;

    /** Sum of BALANCE over the whole table, read in a consistent snapshot after the run. */
    long balanceSum() throws Exception;

    /** One client thread's connection. Not thread-safe. */
    interface Session extends AutoCloseable {

        /**
         * Runs one transaction over these ten distinct keys, durably committed when it returns.
         *
         * @return how many times it had to be run again after a conflict, deadlock or lock timeout
         * @throws Exception if it did not commit; the driver counts it as an error
         */
        int run(long[] keys) throws Exception;

        @Override
        void close() throws Exception;
    }
}

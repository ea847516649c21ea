package org.elastras.otm.txn;

import java.util.List;

/**
 * A stored procedure: application code that runs as one transaction at the OTM owning its
 * partition, in one request. The OTM may run it several times (again, on a newer snapshot, after
 * a conflict abort), so it must have no effects outside {@code txn} and must not keep state
 * between runs. To roll back on purpose, throw {@link ProcedureAbort}.
 *
 * <p>Implementations are called from many threads at once, each with its own transaction.
 */
@FunctionalInterface
public interface Procedure {

    /**
     * @param txn the transaction to read and write through; do not commit or abort it
     * @param args the request's arguments
     * @return the result sent back to the client (a value the wire protocol can carry)
     */
    Object run(RowTransaction txn, List<Object> args);
}

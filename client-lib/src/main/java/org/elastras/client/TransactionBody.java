package org.elastras.client;

/**
 * The work of one interactive transaction, for {@link ElasTrasClient#runInTransaction}. It may run
 * more than once (after a conflict or a failover), each time in a new transaction, so it must have
 * no effects outside the transaction it is given.
 *
 * @param <T> what it returns
 */
@FunctionalInterface
public interface TransactionBody<T> {

    T run(ClientTransaction txn);
}

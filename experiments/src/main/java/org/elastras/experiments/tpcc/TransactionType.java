package org.elastras.experiments.tpcc;

/** The five TPC-C transactions, with the mix's minimum share of each (clause 5.2.3). */
public enum TransactionType {
    NEW_ORDER(45),
    PAYMENT(43),
    ORDER_STATUS(4),
    DELIVERY(4),
    STOCK_LEVEL(4);

    /** Cards of this type in a deck of 100 ({@link TransactionMix}). */
    final int cardsPer100;

    TransactionType(int cardsPer100) {
        this.cardsPer100 = cardsPer100;
    }
}

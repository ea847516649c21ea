package org.elastras.experiments.tpcc;

import java.util.SplittableRandom;

/**
 * Chooses the next transaction type of a terminal from a shuffled deck of 100 cards, 45 New-Order,
 * 43 Payment and 4 each of Order-Status, Delivery and Stock-Level, reshuffled when used up: the
 * card-deck selection clause 5.2.4.2 allows, which keeps every type at or above its minimum share
 * of clause 5.2.3 over each 100 transactions. Seeded; not thread-safe (one per terminal).
 */
public final class TransactionMix {

    private final TransactionType[] deck = new TransactionType[100];
    private final SplittableRandom random;
    private int next = deck.length;

    public TransactionMix(long seed) {
        this.random = new SplittableRandom(seed);
        int i = 0;
        for (TransactionType t : TransactionType.values()) {
            for (int c = 0; c < t.cardsPer100; c++) {
                deck[i++] = t;
            }
        }
        if (i != deck.length) {
            throw new IllegalStateException("the mix must have 100 cards, has " + i);
        }
    }

    public TransactionType next() {
        if (next == deck.length) {
            for (int i = deck.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                TransactionType t = deck[i];
                deck[i] = deck[j];
                deck[j] = t;
            }
            next = 0;
        }
        return deck[next++];
    }
}

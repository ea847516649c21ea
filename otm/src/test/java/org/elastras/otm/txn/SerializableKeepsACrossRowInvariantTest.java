package org.elastras.otm.txn;

import static org.elastras.otm.txn.TxnTestbed.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Write skew under load: accounts come in pairs whose sum must stay >= 0; each transaction reads
 * both accounts of a pair and withdraws from one of them only if the pair can afford it. Under
 * SERIALIZABLE no interleaving of real threads may break the invariant, and transfers that move
 * money between pairs keep the total.
 */
class SerializableKeepsACrossRowInvariantTest {

    private static final long P = 2;
    private static final int PAIRS = 4;
    private static final int THREADS = 6;
    private static final int TRANSACTIONS_PER_THREAD = 200;

    @Test
    void noPairGoesNegativeAndTheTotalIsKept() throws Exception {
        try (TxnTestbed bed = new TxnTestbed(P)) {
            TransactionManager m = bed.manager;
            long setup = m.begin(P, Isolation.SERIALIZABLE);
            for (int p = 0; p < PAIRS; p++) {
                m.put(setup, key(p, 0), encode(50));
                m.put(setup, key(p, 1), encode(50));
            }
            m.commit(setup);
            long seed = Long.getLong("txn.seed", System.nanoTime());
            System.out.println("SerializableKeepsACrossRowInvariantTest seed=" + seed);
            AtomicInteger commits = new AtomicInteger();
            java.util.concurrent.atomic.AtomicLong withdrawn = new java.util.concurrent.atomic.AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                Random random = new Random(seed + i);
                threads.add(new Thread(() -> {
                    try {
                        for (int n = 0; n < TRANSACTIONS_PER_THREAD; n++) {
                            if (random.nextInt(4) == 0) {
                                transfer(m, random.nextInt(PAIRS), random.nextInt(PAIRS), 1 + random.nextInt(10));
                            } else {
                                withdrawn.addAndGet(withdraw(m, random.nextInt(PAIRS), random.nextInt(2), 1 + random.nextInt(40)));
                            }
                            commits.incrementAndGet();
                        }
                    } catch (TransactionException e) {
                        failures.add(e);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> "seed " + seed + ": " + failures.peek());
            long check = m.begin(P, Isolation.SNAPSHOT);
            long total = 0;
            for (int p = 0; p < PAIRS; p++) {
                long sum = decode(m.get(check, key(p, 0))) + decode(m.get(check, key(p, 1)));
                assertTrue(sum >= 0, "seed " + seed + ": pair " + p + " went to " + sum);
                total += sum;
            }
            assertEquals(PAIRS * 100L - withdrawn.get(), total, "seed " + seed + ": money appeared or vanished");
            m.commit(check);
            assertEquals(0, m.intentsHeld(P));
        }
    }

    /** Withdraws from one account of a pair if the pair stays >= 0; returns the amount withdrawn. */
    private static long withdraw(TransactionManager m, int pair, int account, long amount) {
        for (int attempt = 0; attempt < 1000; attempt++) {
            long t = m.begin(P, Isolation.SERIALIZABLE);
            try {
                long a = decode(m.get(t, key(pair, 0)));
                long b = decode(m.get(t, key(pair, 1)));
                boolean affordable = a + b - amount >= 0;
                if (affordable) {
                    m.put(t, key(pair, account), encode((account == 0 ? a : b) - amount));
                }
                m.commit(t);
                return affordable ? amount : 0;
            } catch (TransactionException e) {
                if (!e.retryable()) {
                    throw e;
                }
                m.abort(t);
                Thread.yield();
            }
        }
        throw new AssertionError("withdraw never committed");
    }

    /** Moves money between the first accounts of two pairs (never below what its pair can afford). */
    private static void transfer(TransactionManager m, int from, int to, long amount) {
        if (from == to) {
            return;
        }
        for (int attempt = 0; attempt < 1000; attempt++) {
            long t = m.begin(P, Isolation.SERIALIZABLE);
            try {
                long a = decode(m.get(t, key(from, 0)));
                long b = decode(m.get(t, key(from, 1)));
                if (a + b - amount >= 0) {
                    long c = decode(m.get(t, key(to, 0)));
                    m.put(t, key(from, 0), encode(a - amount));
                    m.put(t, key(to, 0), encode(c + amount));
                }
                m.commit(t);
                return;
            } catch (TransactionException e) {
                if (!e.retryable()) {
                    throw e;
                }
                m.abort(t);
                Thread.yield();
            }
        }
        throw new AssertionError("transfer never committed");
    }

    private static byte[] key(int pair, int account) {
        return bytes("acct-" + pair + "-" + account);
    }

    private static byte[] encode(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static long decode(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }
}

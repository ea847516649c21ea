package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.assertClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Histories of 100k transactions check in seconds: a valid serial one, and one whose 100k
 * transactions form a single cycle (deep enough to overflow a recursive SCC search). No timing
 * is asserted; the suite's run time shows a regression.
 */
class HistoryCheckerScaleTest {

    private static final int TRANSACTIONS = 100_000;

    /** A serial execution over rotating list keys and a few registers, with aborts and unknown outcomes. */
    private static History serialHistory(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Map<String, List<Long>> lists = new HashMap<>();
        Map<String, Long> registers = new HashMap<>();
        String[] listKeys = new String[8];
        int[] appends = new int[listKeys.length];
        int keyGeneration = 0;
        for (int i = 0; i < listKeys.length; i++) {
            listKeys[i] = "x" + keyGeneration++;
        }
        long nextValue = 1;
        List<Transaction> transactions = new ArrayList<>(TRANSACTIONS);
        for (int id = 0; id < TRANSACTIONS; id++) {
            int roll = random.nextInt(100);
            boolean applied = roll >= 4 || roll == 3; // roll 0-2 FAIL; roll 3 UNKNOWN but applied; roll 4 UNKNOWN not applied
            Outcome outcome = roll < 3 ? Outcome.FAIL : roll < 5 ? Outcome.UNKNOWN : Outcome.OK;
            applied = roll >= 5 || roll == 3;
            Map<String, List<Long>> listWrites = new HashMap<>();
            Map<String, Long> registerWrites = new HashMap<>();
            List<MicroOp> ops = new ArrayList<>();
            int count = 1 + random.nextInt(4);
            for (int i = 0; i < count; i++) {
                if (random.nextInt(4) == 0) {
                    String key = "r" + random.nextInt(4);
                    if (random.nextBoolean()) {
                        Long seen = registerWrites.containsKey(key) ? registerWrites.get(key) : registers.get(key);
                        ops.add(MicroOp.ReadRegister.of(key, seen));
                    } else {
                        long value = nextValue++;
                        registerWrites.put(key, value);
                        ops.add(new MicroOp.Write(key, value));
                    }
                } else {
                    int slot = random.nextInt(listKeys.length);
                    String key = listKeys[slot];
                    if (random.nextBoolean()) {
                        List<Long> seen = new ArrayList<>(lists.getOrDefault(key, List.of()));
                        seen.addAll(listWrites.getOrDefault(key, List.of()));
                        ops.add(new MicroOp.ReadList(key, seen));
                    } else {
                        long value = nextValue++;
                        listWrites.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
                        ops.add(new MicroOp.Append(key, value));
                        if (++appends[slot] == 20) {
                            appends[slot] = 0;
                            listKeys[slot] = "x" + keyGeneration++;
                        }
                    }
                }
            }
            if (applied) {
                listWrites.forEach((key, values) -> lists.computeIfAbsent(key, k -> new ArrayList<>()).addAll(values));
                registers.putAll(registerWrites);
            }
            transactions.add(Transaction.of(id, id % 10, outcome, 2L * id, 2L * id + 1, ops));
        }
        return new History(IsolationLevel.SERIALIZABLE, transactions, false);
    }

    @Test
    void aValidSerialHistoryOf100kTransactionsHasNoAnomaly() {
        History history = serialHistory(42);
        CheckResult result = new HistoryChecker().check(history);
        assertClasses(result);
        assertTrue(result.valid());
        assertTrue(result.committedTransactions() > TRANSACTIONS * 9 / 10);
    }

    /**
     * T_i reads key k_i as empty and appends to k_(i+1), so T_i -rw-> T_(i-1) for every i: one
     * ring of 100k anti-dependencies, write skew around the whole history.
     */
    @Test
    void aRingOf100kAntiDependenciesIsOneG2ItemCycle() {
        List<Transaction> transactions = new ArrayList<>();
        for (int i = 0; i < TRANSACTIONS; i++) {
            List<MicroOp> ops = List.of(new MicroOp.ReadList("k" + i, List.of()), new MicroOp.Append("k" + (i + 1) % TRANSACTIONS, i));
            transactions.add(Transaction.of(i, i, Outcome.OK, 0, 1, ops));
        }
        int readers = 100;
        int keysPerReader = TRANSACTIONS / readers;
        for (int r = 0; r < readers; r++) {
            List<MicroOp> ops = new ArrayList<>();
            for (int k = r * keysPerReader; k < (r + 1) * keysPerReader; k++) {
                long writer = (k + TRANSACTIONS - 1) % TRANSACTIONS;
                ops.add(new MicroOp.ReadList("k" + k, List.of(writer)));
            }
            transactions.add(Transaction.of(TRANSACTIONS + r, TRANSACTIONS + r, Outcome.OK, 2, 3, ops));
        }
        CheckResult serializable = new HistoryChecker().check(new History(IsolationLevel.SERIALIZABLE, transactions, false));
        assertClasses(serializable, AnomalyClass.G2_ITEM);
        assertEquals(TRANSACTIONS, serializable.anomalies(AnomalyClass.G2_ITEM).get(0).cycle().size());
        assertTrue(serializable.anomalies(AnomalyClass.G2_ITEM).get(0).explanation().contains("more edges"));
        assertFalse(serializable.valid());
        CheckResult snapshot = new HistoryChecker().check(new History(IsolationLevel.SNAPSHOT, transactions, false));
        assertTrue(snapshot.valid());
    }
}

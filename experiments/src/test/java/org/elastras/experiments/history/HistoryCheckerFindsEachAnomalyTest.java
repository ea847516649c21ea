package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.append;
import static org.elastras.experiments.history.HistoryBuilder.assertClasses;
import static org.elastras.experiments.history.HistoryBuilder.onlyCycle;
import static org.elastras.experiments.history.HistoryBuilder.onlyTransactions;
import static org.elastras.experiments.history.HistoryBuilder.read;
import static org.elastras.experiments.history.HistoryBuilder.readList;
import static org.elastras.experiments.history.HistoryBuilder.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * For every anomaly class, a hand-built history that shows it (the checker must name the class,
 * the transactions and the cycle) and a near miss that differs in one read and is valid.
 */
class HistoryCheckerFindsEachAnomalyTest {

    @Nested
    class DuplicateElements {
        @Test
        void aListHoldingAnAppendTwiceIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, readList("x", 1, 1)).check();
            assertClasses(result, AnomalyClass.DUPLICATE_ELEMENTS);
            assertEquals(List.of(1L), onlyTransactions(result, AnomalyClass.DUPLICATE_ELEMENTS));
            assertFalse(result.valid());
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, readList("x", 1)).check();
            assertClasses(result);
            assertTrue(result.valid());
        }
    }

    @Nested
    class Internal {
        @Test
        void aReadMissingTheTransactionsOwnAppendIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), readList("x")).check();
            assertClasses(result, AnomalyClass.INTERNAL);
            assertEquals(List.of(0L), onlyTransactions(result, AnomalyClass.INTERNAL));
        }

        @Test
        void aNonRepeatableListReadIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 2)).ok(1, readList("x"), readList("x", 2)).check();
            // Its two external reads also put T1 both before and after T0: a G-single cycle.
            assertClasses(result, AnomalyClass.INTERNAL, AnomalyClass.G_SINGLE);
            assertEquals("T1 -rw(x)-> T0 -wr(x)-> T1", onlyCycle(result, AnomalyClass.G_SINGLE));
            assertEquals(List.of(1L), onlyTransactions(result, AnomalyClass.INTERNAL));
        }

        @Test
        void aRegisterReadMissingTheTransactionsOwnWriteIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, write("r", 1)).ok(1, read("r", 1L), write("r", 2), read("r", 1L)).check();
            assertTrue(result.classesFound().contains(AnomalyClass.INTERNAL), result::render);
            assertEquals(List.of(1L), onlyTransactions(result, AnomalyClass.INTERNAL));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 2)).ok(1, readList("x", 2), append("x", 3), readList("x", 2, 3))
                    .ok(2, append("x", 4), readList("x", 2, 3, 4), write("r", 1), read("r", 1L)).check();
            assertClasses(result);
        }
    }

    @Nested
    class GarbageRead {
        @Test
        void aValueNobodyWroteIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, readList("x", 1, 5)).check();
            assertClasses(result, AnomalyClass.GARBAGE_READ);
            assertEquals(List.of(1L), onlyTransactions(result, AnomalyClass.GARBAGE_READ));
        }

        @Test
        void aRegisterValueNobodyWroteIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, read("r", 7L)).check();
            assertClasses(result, AnomalyClass.GARBAGE_READ);
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), append("x", 5)).ok(1, readList("x", 1, 5)).check();
            assertClasses(result);
        }

        @Test
        void aTruncatedHistoryIsNotCheckedForGarbage() {
            History full = HistoryBuilder.serializable().ok(0, readList("x", 5)).build();
            History truncated = new History(full.isolation(), full.transactions(), true);
            CheckResult result = new HistoryChecker().check(truncated);
            assertClasses(result);
            assertTrue(result.truncated());
        }
    }

    @Nested
    class IncompatibleOrder {
        @Test
        void readsThatAreNotPrefixesOfEachOtherAreFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, append("x", 2))
                    .ok(2, readList("x", 1, 2)).ok(3, readList("x", 2, 1)).check();
            assertClasses(result, AnomalyClass.INCOMPATIBLE_ORDER);
            assertEquals(List.of(2L, 3L), onlyTransactions(result, AnomalyClass.INCOMPATIBLE_ORDER));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, append("x", 2))
                    .ok(2, readList("x", 1, 2)).ok(3, readList("x", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class G1a {
        @Test
        void aCommittedReadOfAnAbortedAppendIsFound() {
            CheckResult result = HistoryBuilder.serializable().fail(0, append("x", 1)).ok(1, readList("x", 1)).check();
            assertClasses(result, AnomalyClass.G1A);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.G1A));
        }

        @Test
        void aCommittedReadOfAnAbortedRegisterWriteIsFound() {
            CheckResult result = HistoryBuilder.serializable().fail(0, write("r", 1)).ok(1, read("r", 1L)).check();
            assertClasses(result, AnomalyClass.G1A);
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().fail(0, append("x", 1)).ok(1, readList("x")).check();
            assertClasses(result);
        }
    }

    @Nested
    class G1b {
        @Test
        void aReadOfANonFinalAppendIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), append("x", 2)).ok(1, readList("x", 1)).check();
            assertClasses(result, AnomalyClass.G1B);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.G1B));
        }

        @Test
        void aReadOfANonFinalRegisterWriteIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, write("r", 1), write("r", 2)).ok(1, read("r", 1L)).check();
            assertClasses(result, AnomalyClass.G1B);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.G1B));
        }

        @Test
        void readingOwnIntermediateWriteIsFine() {
            CheckResult result = HistoryBuilder.serializable().ok(0, write("r", 1), read("r", 1L), write("r", 2)).check();
            assertClasses(result);
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), append("x", 2)).ok(1, readList("x", 1, 2)).check();
            assertClasses(result);
        }
    }

    @Nested
    class G0 {
        @Test
        void aWriteCycleIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), append("y", 1)).ok(1, append("x", 2), append("y", 2))
                    .ok(2, readList("x", 1, 2)).ok(3, readList("y", 2, 1)).check();
            assertClasses(result, AnomalyClass.G0);
            assertEquals("T0 -ww(x)-> T1 -ww(y)-> T0", onlyCycle(result, AnomalyClass.G0));
            assertTrue(result.anomalies(AnomalyClass.G0).get(0).explanation().contains("T1 (process 1, OK): append(x, 2); append(y, 2)"));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), append("y", 1)).ok(1, append("x", 2), append("y", 2))
                    .ok(2, readList("x", 1, 2)).ok(3, readList("y", 1, 2)).check();
            assertClasses(result);
        }
    }

    @Nested
    class G1c {
        @Test
        void circularInformationFlowIsFound() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), readList("y", 1)).ok(1, append("y", 1), readList("x", 1)).check();
            assertClasses(result, AnomalyClass.G1C);
            assertEquals("T0 -wr(x)-> T1 -wr(y)-> T0", onlyCycle(result, AnomalyClass.G1C));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1), readList("y", 1)).ok(1, append("y", 1), readList("x")).check();
            assertClasses(result);
        }
    }

    @Nested
    class LostUpdate {
        @Test
        void twoAppendersThatReadTheSameVersionAreFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1)).ok(1, readList("x", 1), append("x", 2))
                    .ok(2, readList("x", 1), append("x", 3)).ok(3, readList("x", 1, 2, 3)).check();
            // The same two transactions form a G-single cycle: T2 missed T1's append yet follows it.
            assertClasses(result, AnomalyClass.LOST_UPDATE, AnomalyClass.G_SINGLE);
            assertEquals(List.of(1L, 2L), onlyTransactions(result, AnomalyClass.LOST_UPDATE));
            assertEquals("T2 -rw(x)-> T1 -ww(x)-> T2", onlyCycle(result, AnomalyClass.G_SINGLE));
            assertFalse(result.valid());
        }

        @Test
        void twoRegisterWritersThatReadTheInitialStateAreFoundEvenUnderSnapshotIsolation() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, read("r", null), write("r", 1)).ok(1, read("r", null), write("r", 2)).check();
            assertClasses(result, AnomalyClass.LOST_UPDATE, AnomalyClass.G2_ITEM);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.LOST_UPDATE));
            assertEquals("T0 -rw(r)-> T1 -rw(r)-> T0", onlyCycle(result, AnomalyClass.G2_ITEM));
            assertEquals(List.of(AnomalyClass.LOST_UPDATE), result.forbiddenFound());
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).ok(1, readList("x", 1), append("x", 2))
                    .ok(2, readList("x", 1, 2), append("x", 3)).ok(3, readList("x", 1, 2, 3)).check();
            assertClasses(result);
        }

        @Test
        void registerNearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, read("r", null), write("r", 1)).ok(1, read("r", 1L), write("r", 2))
                    .ok(2, read("r", 2L)).check();
            assertClasses(result);
        }
    }

    @Nested
    class GSingle {
        @Test
        void readSkewIsFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1), append("y", 1)).ok(1, readList("x"), readList("y", 1))
                    .ok(2, readList("x", 1)).check();
            assertClasses(result, AnomalyClass.G_SINGLE);
            assertEquals("T1 -rw(x)-> T0 -wr(y)-> T1", onlyCycle(result, AnomalyClass.G_SINGLE));
            assertFalse(result.valid());
        }

        @Test
        void registerReadSkewIsFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, read("a", null), write("a", 1), write("b", 1))
                    .ok(1, read("a", null), read("b", 1L)).check();
            assertClasses(result, AnomalyClass.G_SINGLE);
            assertEquals("T1 -rw(a)-> T0 -wr(b)-> T1", onlyCycle(result, AnomalyClass.G_SINGLE));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1), append("y", 1)).ok(1, readList("x", 1), readList("y", 1))
                    .ok(2, readList("x", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class LongFork {
        @Test
        void twoReadersSeeingIndependentWritesInOppositeOrdersAreFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1)).ok(1, append("y", 1))
                    .ok(2, readList("x", 1), readList("y")).ok(3, readList("y", 1), readList("x")).check();
            assertClasses(result, AnomalyClass.LONG_FORK);
            assertEquals("T2 -rw(y)-> T1 -wr(y)-> T3 -rw(x)-> T0 -wr(x)-> T2", onlyCycle(result, AnomalyClass.LONG_FORK));
            assertFalse(result.valid());
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1)).ok(1, append("y", 1))
                    .ok(2, readList("x", 1), readList("y")).ok(3, readList("y", 1), readList("x", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class GNonadjacent {
        @Test
        void aCycleWithNonAdjacentAntiDependenciesIsFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1)).ok(1, append("y", 1))
                    .ok(2, readList("x", 1), readList("y")).ok(3, append("y", 2), readList("x")).ok(4, readList("y", 1, 2)).check();
            assertClasses(result, AnomalyClass.G_NONADJACENT);
            assertEquals("T2 -rw(y)-> T1 -ww(y)-> T3 -rw(x)-> T0 -wr(x)-> T2", onlyCycle(result, AnomalyClass.G_NONADJACENT));
            assertFalse(result.valid());
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.snapshot().ok(0, append("x", 1)).ok(1, append("y", 1))
                    .ok(2, readList("x", 1), readList("y")).ok(3, append("y", 2), readList("x", 1)).ok(4, readList("y", 1, 2)).check();
            assertClasses(result);
        }
    }

    @Nested
    class G2Item {
        private HistoryBuilder writeSkew(HistoryBuilder builder) {
            return builder.ok(0, readList("x"), readList("y"), append("x", 1)).ok(1, readList("x"), readList("y"), append("y", 1))
                    .ok(2, readList("x", 1), readList("y", 1));
        }

        @Test
        void writeSkewIsForbiddenUnderSerializable() {
            CheckResult result = writeSkew(HistoryBuilder.serializable()).check();
            assertClasses(result, AnomalyClass.G2_ITEM);
            assertEquals("T0 -rw(y)-> T1 -rw(x)-> T0", onlyCycle(result, AnomalyClass.G2_ITEM));
            assertFalse(result.valid());
        }

        @Test
        void writeSkewIsAllowedUnderSnapshotIsolation() {
            CheckResult result = writeSkew(HistoryBuilder.snapshot()).check();
            assertClasses(result, AnomalyClass.G2_ITEM);
            assertTrue(result.valid());
            assertTrue(result.render().contains("allowed under SNAPSHOT"));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.serializable().ok(0, readList("x"), readList("y"), append("x", 1))
                    .ok(1, readList("x", 1), readList("y"), append("y", 1)).ok(2, readList("x", 1), readList("y", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class SessionOrder {
        @Test
        void aSessionNotSeeingItsOwnAppendIsFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(1, append("x", 1)).ok(1, readList("x")).check();
            assertClasses(result, AnomalyClass.SESSION_ORDER);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.SESSION_ORDER));
        }

        @Test
        void whenTheAppendIsSeenElsewhereTheSessionEdgeCloses_aGSingleCycle() {
            CheckResult result = HistoryBuilder.snapshot().ok(1, append("x", 1)).ok(1, readList("x")).ok(2, readList("x", 1)).check();
            assertClasses(result, AnomalyClass.SESSION_ORDER, AnomalyClass.G_SINGLE);
            assertEquals("T1 -rw(x)-> T0 -session-> T1", onlyCycle(result, AnomalyClass.G_SINGLE));
        }

        @Test
        void aSessionNotSeeingItsOwnRegisterWriteIsFound() {
            CheckResult result = HistoryBuilder.snapshot().ok(1, write("r", 1)).ok(1, write("r", 2)).ok(1, read("r", 1L)).check();
            assertClasses(result, AnomalyClass.SESSION_ORDER);
            assertEquals(List.of(1L, 2L), onlyTransactions(result, AnomalyClass.SESSION_ORDER));
        }

        @Test
        void aSnapshotBelowTheSessionsLastCommitIsFound() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(1, 5L, null, readList("y")).check();
            assertClasses(result, AnomalyClass.SESSION_ORDER);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.SESSION_ORDER));
        }

        @Test
        void nearMissAnotherSessionMayReadAnOlderSnapshot() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(2, 5L, null, readList("x")).check();
            assertClasses(result);
        }

        @Test
        void nearMissAReadOnlyTransactionsTimestampDoesNotBindTheSession() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, readList("x")).okAt(1, 5L, null, readList("x")).check();
            assertClasses(result);
        }

        @Test
        void nearMissTheSameSessionSeesItsWrite() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(1, 10L, null, readList("x", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class GSIa {
        @Test
        void readingAWriteCommittedAfterTheSnapshotIsFound() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(2, 5L, null, readList("x", 1)).check();
            assertClasses(result, AnomalyClass.G_SIA);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.G_SIA));
        }

        @Test
        void overwritingAWriteCommittedAfterTheSnapshotIsFound() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(2, 5L, 11L, append("x", 2))
                    .ok(3, readList("x", 1, 2)).check();
            assertClasses(result, AnomalyClass.G_SIA);
            assertEquals(List.of(0L, 1L), onlyTransactions(result, AnomalyClass.G_SIA));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(2, 10L, null, readList("x", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class GSIb {
        @Test
        void missingAWriteWithinTheSnapshotIsFound() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(2, 15L, null, readList("x"))
                    .ok(3, readList("x", 1)).check();
            assertClasses(result, AnomalyClass.G_SIB);
            assertEquals(List.of(1L, 0L), onlyTransactions(result, AnomalyClass.G_SIB));
        }

        @Test
        void nearMissIsValid() {
            CheckResult result = HistoryBuilder.snapshot().okAt(1, 0L, 10L, append("x", 1)).okAt(2, 9L, null, readList("x"))
                    .ok(3, readList("x", 1)).check();
            assertClasses(result);
        }
    }

    @Nested
    class UnknownOutcomes {
        @Test
        void anUnobservedUnknownWriteIsTakenAsNotCommitted() {
            CheckResult result = HistoryBuilder.serializable().unknown(0, MicroOp.ReadList.unobserved("x"), append("x", 1))
                    .ok(1, readList("x"), append("x", 2)).ok(2, readList("x", 2)).check();
            assertClasses(result);
            assertEquals(2, result.committedTransactions());
        }

        @Test
        void anUnknownThatWouldMakeALostUpdateIsNotBlamed() {
            CheckResult result = HistoryBuilder.serializable().ok(0, append("x", 1)).unknown(1, readList("x", 1), append("x", 2))
                    .ok(2, readList("x", 1), append("x", 3)).ok(3, readList("x", 1, 3)).check();
            assertClasses(result);
        }

        @Test
        void anObservedUnknownWriteIsTakenAsCommittedAndCanFormACycle() {
            CheckResult result = HistoryBuilder.snapshot().unknown(0, append("x", 1), append("y", 1)).ok(1, readList("x", 1), readList("y"))
                    .ok(2, readList("y", 1)).check();
            assertClasses(result, AnomalyClass.G_SINGLE);
            assertEquals("T1 -rw(y)-> T0 -wr(x)-> T1", onlyCycle(result, AnomalyClass.G_SINGLE));
            assertEquals(3, result.committedTransactions());
        }

        @Test
        void aFailedTransactionsWritesNeverFormEdges() {
            CheckResult result = HistoryBuilder.serializable().fail(0, readList("x"), append("x", 1)).ok(1, readList("x"), append("x", 2))
                    .ok(2, readList("x", 2)).check();
            assertClasses(result);
        }
    }
}

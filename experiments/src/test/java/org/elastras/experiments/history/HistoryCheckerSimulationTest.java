package org.elastras.experiments.history;

import static org.elastras.experiments.history.HistoryBuilder.assertClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import org.elastras.experiments.history.SimulatedDatabase.Config;
import org.elastras.experiments.history.SimulatedDatabase.Fault;
import org.elastras.experiments.history.SimulatedDatabase.Mode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded simulations: histories of a correct serial, serializable and snapshot-isolated
 * executor (with aborts and unknown outcomes) check clean, and each injected fault is found.
 * A failing seed replays exactly.
 */
class HistoryCheckerSimulationTest {

    private static final int TRANSACTIONS = 2_000;

    private static CheckResult check(SimulatedDatabase.Run run) {
        return new HistoryChecker().check(run.history());
    }

    private static void assertHasUncertainOutcomes(History history) {
        long failed = history.transactions().stream().filter(t -> t.outcome() == Outcome.FAIL).count();
        long unknown = history.transactions().stream().filter(t -> t.outcome() == Outcome.UNKNOWN).count();
        assertTrue(failed > 0 && unknown > 0, "the simulation must produce FAIL and UNKNOWN transactions: " + failed + ", " + unknown);
    }

    @org.junit.jupiter.api.Test
    void aSeedReplaysTheSameHistoryAndVerdict() {
        Config config = Config.of(11, 500, Mode.SNAPSHOT, Fault.READ_SKEW, IsolationLevel.SERIALIZABLE);
        SimulatedDatabase.Run first = SimulatedDatabase.run(config);
        SimulatedDatabase.Run second = SimulatedDatabase.run(config);
        assertEquals(first, second);
        assertEquals(check(first), check(second));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void serialExecutorHistoriesHaveNoAnomaly(long seed) {
        SimulatedDatabase.Run run = SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SERIAL, Fault.NONE, IsolationLevel.SERIALIZABLE));
        assertHasUncertainOutcomes(run.history());
        CheckResult result = check(run);
        assertClasses(result);
        assertTrue(result.valid());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void serializableExecutorHistoriesHaveNoAnomaly(long seed) {
        SimulatedDatabase.Run run =
                SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SERIALIZABLE, Fault.NONE, IsolationLevel.SERIALIZABLE));
        assertHasUncertainOutcomes(run.history());
        assertClasses(check(run));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void snapshotExecutorHistoriesAreValidSnapshotIsolation(long seed) {
        SimulatedDatabase.Run run = SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SNAPSHOT, Fault.NONE, IsolationLevel.SNAPSHOT));
        CheckResult result = check(run);
        assertTrue(EnumSet.of(AnomalyClass.G2_ITEM).containsAll(result.classesFound()), result::render);
        assertTrue(result.valid(), result::render);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void snapshotExecutorClaimingSerializableShowsWriteSkew(long seed) {
        SimulatedDatabase.Run run = SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SNAPSHOT, Fault.NONE, IsolationLevel.SERIALIZABLE));
        CheckResult result = check(run);
        assertClasses(result, AnomalyClass.G2_ITEM);
        assertFalse(result.valid());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void withoutFirstUpdaterWinsLostUpdatesAreFound(long seed) {
        SimulatedDatabase.Run run =
                SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SNAPSHOT, Fault.NO_FIRST_UPDATER_WINS, IsolationLevel.SNAPSHOT));
        CheckResult result = check(run);
        assertTrue(result.classesFound().contains(AnomalyClass.LOST_UPDATE), result::render);
        assertFalse(result.valid());
        // Each lost update names transactions that really did read one version and write the key.
        for (Anomaly anomaly : result.anomalies(AnomalyClass.LOST_UPDATE)) {
            assertTrue(anomaly.transactionIds().size() >= 2);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void aStaleSessionSnapshotIsFoundAndBlamesTheStaleTransaction(long seed) {
        SimulatedDatabase.Run run =
                SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SNAPSHOT, Fault.STALE_SESSION_SNAPSHOT, IsolationLevel.SNAPSHOT));
        assertTrue(run.faultTransactionId() >= 0, "the fault must strike");
        CheckResult result = check(run);
        assertFalse(result.valid());
        List<Anomaly> session = result.anomalies(AnomalyClass.SESSION_ORDER);
        assertFalse(session.isEmpty(), result::render);
        for (Anomaly anomaly : session) {
            assertEquals(run.faultTransactionId(), anomaly.transactionIds().get(1), result::render);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void aReaderHalfOnAStaleSnapshotIsFoundAsReadSkew(long seed) {
        SimulatedDatabase.Run run = SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SNAPSHOT, Fault.READ_SKEW, IsolationLevel.SNAPSHOT));
        assertTrue(run.faultTransactionId() >= 0, "the fault must strike");
        CheckResult result = check(run);
        assertFalse(result.valid());
        List<Long> pair = List.of(run.faultTransactionId(), run.faultWriterId());
        assertTrue(result.anomalies(AnomalyClass.G_SINGLE).stream().anyMatch(a -> a.transactionIds().containsAll(pair)), result::render);
        // The reader reported its real snapshot, which holds the writer's commit: a witnessed missed effect.
        assertTrue(result.anomalies(AnomalyClass.G_SIB).stream().anyMatch(a -> a.transactionIds().equals(pair)), result::render);
        // Every forbidden anomaly goes through the skewed reader: the fault is their only cause.
        for (AnomalyClass type : result.forbiddenFound()) {
            for (Anomaly anomaly : result.anomalies(type)) {
                assertTrue(anomaly.transactionIds().contains(run.faultTransactionId()), result::render);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void appliedAbortedWritesAreFoundAsAbortedReads(long seed) {
        SimulatedDatabase.Run run =
                SimulatedDatabase.run(Config.of(seed, TRANSACTIONS, Mode.SERIALIZABLE, Fault.ABORTED_WRITES_APPLIED, IsolationLevel.SERIALIZABLE));
        assertTrue(run.faultTransactionId() >= 0, "the fault must strike");
        CheckResult result = check(run);
        assertTrue(EnumSet.of(AnomalyClass.G1A).containsAll(result.classesFound()), result::render);
        assertFalse(result.anomalies(AnomalyClass.G1A).isEmpty(), result::render);
        for (Anomaly anomaly : result.anomalies(AnomalyClass.G1A)) {
            assertEquals(run.faultTransactionId(), anomaly.transactionIds().get(0));
        }
    }
}

package org.elastras.experiments.torture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.elastras.experiments.history.AnomalyClass;
import org.elastras.experiments.history.CheckResult;
import org.elastras.experiments.history.History;
import org.elastras.experiments.history.HistoryChecker;
import org.elastras.experiments.history.HistoryRecorder;
import org.elastras.experiments.history.IsolationLevel;
import org.elastras.experiments.history.MicroOp;
import org.elastras.experiments.history.Outcome;
import org.junit.jupiter.api.Test;

/**
 * The torture verdict catches what it must: an acknowledged append missing from the final read is
 * a lost commit (even though the history checker, which sees no cycle, calls the history valid),
 * an append of unknown outcome may be missing, and an aborted append that shows up is the
 * checker's G1a. The histories are recorded the way the workload records them.
 */
class LostCommitsTest {

    private final AtomicLong clock = new AtomicLong();
    private final HistoryRecorder recorder = new HistoryRecorder(IsolationLevel.SERIALIZABLE, 1_000, () -> clock.addAndGet(10));

    private void run(int process, Outcome outcome, MicroOp... ops) {
        long id = recorder.invoke(process, List.of(ops));
        recorder.complete(id, outcome, List.of(ops));
    }

    private static MicroOp append(String key, long value) {
        return new MicroOp.Append(key, value);
    }

    private static MicroOp read(String key, Long... values) {
        return new MicroOp.ReadList(key, List.of(values));
    }

    @Test
    void anAcknowledgedAppendMissingFromTheFinalReadIsALostCommit() {
        run(0, Outcome.OK, append("7", 1));
        run(1, Outcome.OK, append("7", 2), append("8", 3));
        run(2, Outcome.OK, read("7", 1L, 2L));
        // The final read drops append(7, 2), which was acknowledged and even read by process 2.
        run(ListAppendWorkload.FINAL_READ_PROCESS_BASE, Outcome.OK, read("7", 1L), read("8", 3L));
        History history = recorder.history();

        List<LostCommits.LostAppend> lost = LostCommits.find(history, Map.of("7", List.of(1L), "8", List.of(3L)));

        assertEquals(List.of(new LostCommits.LostAppend(1, "7", 2)), lost);
        CheckResult check = new HistoryChecker().check(history);
        assertFalse(check.valid(), "a committed read saw 2 and a later snapshot lost it: " + check.render());
    }

    @Test
    void aLostAppendNobodyReadIsFoundOnlyByTheReadBack() {
        run(0, Outcome.OK, append("7", 1));
        run(1, Outcome.OK, append("7", 2));
        run(ListAppendWorkload.FINAL_READ_PROCESS_BASE, Outcome.OK, read("7", 1L));
        History history = recorder.history();

        assertEquals(List.of(new LostCommits.LostAppend(1, "7", 2)), LostCommits.find(history, Map.of("7", List.of(1L))));
    }

    @Test
    void anAppendOfUnknownOutcomeMayBeMissing() {
        run(0, Outcome.OK, append("7", 1));
        run(1, Outcome.UNKNOWN, append("7", 2));
        run(ListAppendWorkload.FINAL_READ_PROCESS_BASE, Outcome.OK, read("7", 1L));
        History history = recorder.history();

        assertEquals(List.of(), LostCommits.find(history, Map.of("7", List.of(1L))));
        assertTrue(new HistoryChecker().check(history).valid());
    }

    @Test
    void anAbortedAppendThatShowsUpInTheFinalReadIsAnAbortedRead() {
        run(0, Outcome.OK, append("7", 1));
        run(1, Outcome.FAIL, append("7", 2));
        run(ListAppendWorkload.FINAL_READ_PROCESS_BASE, Outcome.OK, read("7", 1L, 2L));
        History history = recorder.history();

        assertEquals(List.of(), LostCommits.find(history, Map.of("7", List.of(1L, 2L))));
        CheckResult check = new HistoryChecker().check(history);
        assertFalse(check.valid());
        assertTrue(check.classesFound().contains(AnomalyClass.G1A), check.render());
    }

    @Test
    void aKeyMissingFromTheFinalReadLosesEveryAcknowledgedAppend() {
        run(0, Outcome.OK, append("7", 1), append("9", 4));
        History history = recorder.history();

        assertEquals(List.of(new LostCommits.LostAppend(0, "9", 4)), LostCommits.find(history, Map.of("7", List.of(1L))));
    }

    @Test
    void aTransactionVisibleInPartIsReportedWhateverItsOutcome() {
        run(0, Outcome.UNKNOWN, append("7", 1), append("8", 2));
        run(1, Outcome.UNKNOWN, append("7", 3), append("8", 4));
        run(2, Outcome.OK, append("9", 5));
        History history = recorder.history();
        Map<String, List<Long>> finalLists = Map.of("7", List.of(1L, 3L), "8", List.of(4L), "9", List.of(5L));

        List<LostCommits.PartialCommit> partial = LostCommits.partial(history, finalLists);

        assertEquals(List.of(new LostCommits.PartialCommit(0, Outcome.UNKNOWN, List.of("append(7, 1)"), List.of("append(8, 2)"))),
                partial);
        assertEquals(1, LostCommits.unknownButCommitted(history, finalLists), "transaction 1 committed although its outcome was unknown");
    }
}

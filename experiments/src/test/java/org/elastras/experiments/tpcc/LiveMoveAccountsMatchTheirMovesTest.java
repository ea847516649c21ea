package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The live-move experiment reads each move's unavailability from the master's log. A move the
 * master never made (no destination, or refused) has no line there; matching the k-th move of a
 * partition to the k-th line shifted every later move of that partition onto another move's
 * figures (session 32's run X3: nine moves without a destination, and the figures of the moves
 * after them were missing or belonged to other moves).
 */
class LiveMoveAccountsMatchTheirMovesTest {

    private static LiveMoveExperiment.MoveRecord move(long partition, String from, String to, String error) {
        return new LiveMoveExperiment.MoveRecord(partition, (int) partition - 2, true, from, to, 0, 0, 0, 0, 0, 0, error);
    }

    private static String[] line(String unavailable, String from, String to) {
        return new String[] {unavailable, "breakdown " + unavailable, "100", from, to};
    }

    @Test
    void aMoveTheMasterNeverMadeTakesNoAccountFromTheMovesAfterIt() {
        List<LiveMoveExperiment.MoveRecord> moves = List.of(
                move(3, "otm-1", "otm-2", null),
                move(3, "otm-2", "?", "no other OTM owned a partition in this run"),
                move(4, "otm-1", "otm-2", null),
                move(3, "otm-2", "otm-1", null),
                move(3, "otm-1", "otm-2", null));
        Map<Long, List<String[]>> master = Map.of(
                3L, List.of(line("30", "otm-1", "otm-2"), line("12", "otm-2", "otm-1"), line("9", "otm-1", "otm-2")),
                4L, List.<String[]>of(line("44", "otm-1", "otm-2")));

        List<String[]> accounts = LiveMoveExperiment.accounts(moves, master);

        assertEquals(List.of("30", "", "44", "12", "9"), accounts.stream().map(a -> a[0]).toList());
        assertArrayEquals(new String[] {"", "", ""}, accounts.get(1));
    }
}

package org.elastras.experiments.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** The elasticity experiment takes each move's unavailability from the master's MOVE_FINISHED message. */
class ElasticityReadsEachMovesUnavailabilityTest {

    private static long unavailable(String message) {
        Matcher m = ElasticityExperiment.UNAVAILABLE_MS.matcher(message);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    @Test
    void coordinatedAndLiveMovesCarryTheirOwnFigure() {
        assertEquals(231, unavailable("moved from otm-1 to otm-2 in 387 ms (unavailable 231 ms: close 83 ms, catalog write 50 ms,"
                + " register 0 ms, open 92 ms, queueing 162 ms)"));
        assertEquals(218, unavailable("moved from otm-1 to otm-2 in 404 ms (unavailable 218 ms: close 241 ms (flushed while serving"
                + " 138 ms, then served nobody 48 ms), catalog write 24 ms, register 0 ms, open 128 ms, queueing 11 ms)"),
                "a coordinated close that flushed while serving first");
        assertEquals(44, unavailable("moved from otm-1 to otm-2 in 410 ms (live, unavailable 44 ms: live copy 300 ms (12 commits"
                + " shipped in 3 batches), origin paused 25 ms (grace 10 ms), close round trip 350 ms, queueing 5 ms)"));
        assertEquals(-1, unavailable("moved from otm-1 to otm-2 in 255 ms (close 77 ms, catalog write 31 ms, register 0 ms,"
                + " open 131 ms, queueing 16 ms)"), "an older master's message: the experiment counts the whole move");
        assertFalse(ElasticityExperiment.UNAVAILABLE_MS.matcher("moved in 5 ms (closed, recorded, opened)").find());
    }
}

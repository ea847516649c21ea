package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.elastras.client.protocol.CloseReport;
import org.elastras.client.protocol.LiveMoveReport;
import org.junit.jupiter.api.Test;

/** How long a move left its partition served nowhere, as the master reports it. */
class MovePhasesTest {

    @Test
    void aCoordinatedMoveIsUnavailableFromTheCloseSentToTheDestinationServing() {
        MovePhases p = new MovePhases();
        assertEquals(-1, p.unavailableMs(9_000), "nothing known yet");
        p.closeSent(1_000);
        p.closed(60);
        assertEquals(-1, p.unavailableMs(9_000), "not serving anywhere yet: unknown, not the finish time");
        p.opened(20, 0, 40, 1_230);
        assertEquals(230, p.unavailableMs(9_000), "the master's bookkeeping after the open is not counted");
        assertFalse(p.live());
        assertEquals(120, p.measuredMs());
        assertTrue(p.describe().startsWith("close 60 ms, catalog write 20 ms"), p.describe());
    }

    @Test
    void aCoordinatedMoveIsUnavailableFromTheOriginsStopOfAdmissionsAfterItsFlushWhileServing() {
        MovePhases p = new MovePhases();
        p.closeSent(1_000);
        p.closed(160);
        p.closedCoordinated(new CloseReport(120, 1_125, 30));
        p.opened(20, 0, 40, 1_230);
        assertEquals(105, p.unavailableMs(9_000), "served until 1,125 while it flushed: unavailable from there");
        assertTrue(p.describe().startsWith("close 160 ms (flushed while serving 120 ms, then served nobody 30 ms), catalog write 20 ms"),
                p.describe());
    }

    @Test
    void anOriginsStopTimeBeforeTheCloseWasSentIsNotBelieved() {
        MovePhases p = new MovePhases();
        p.closeSent(1_000);
        p.closedCoordinated(new CloseReport(0, 900, 30));
        p.opened(20, 0, 40, 1_230);
        assertEquals(230, p.unavailableMs(9_000), "a clock behind the master's cannot stretch the window before the close");
    }

    @Test
    void aLiveMoveIsUnavailableFromTheOriginsPause() {
        MovePhases p = new MovePhases();
        p.closeSent(1_000);
        p.copiedLive(new LiveMoveReport(300, 25, 1_400, 12, 30, 3, false, "grace 10 ms"));
        p.closed(350);
        assertTrue(p.live());
        assertEquals(60, p.unavailableMs(1_460), "from the pause to the confirmation that reached the master");
        p.openedAtHandOver(15, 5, 1_440);
        assertEquals(40, p.unavailableMs(9_000), "the destination's own confirmation, when it recorded itself");
    }
}

package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The in-flight limit follows the share of re-run calls per window, with hysteresis. */
class InFlightLimitTest {

    private static InFlightLimit limit() {
        return new InFlightLimit(4, 2, 100, 0.02, 0.05);
    }

    @Test
    void startsAtTheMostAndStaysThereWhileFewCallsReRun() {
        InFlightLimit l = limit();
        assertEquals(4, l.limit());
        for (int i = 0; i < 10; i++) {
            l.note(50, 0);
            l.note(50, 1); // 1 % per window
            assertEquals(4, l.limit());
        }
    }

    @Test
    void dropsOnceAWindowReRunsAtLeastTheLowerShareAndDecidesOnlyAtTheWindowsEnd() {
        InFlightLimit l = limit();
        l.note(60, 60); // every call re-ran, but the window is not full
        assertEquals(4, l.limit());
        l.note(40, 0); // 60 of 100: 60 %
        assertEquals(2, l.limit());
    }

    @Test
    void exactlyTheLowerShareLowersJustBelowItDoesNot() {
        InFlightLimit at = limit();
        at.note(100, 5);
        assertEquals(2, at.limit());
        InFlightLimit below = limit();
        below.note(100, 4);
        assertEquals(4, below.limit());
    }

    @Test
    void betweenTheSharesTheLimitStaysWhereItIsAndBelowTheRaiseShareItGoesBack() {
        InFlightLimit l = limit();
        l.note(100, 10);
        assertEquals(2, l.limit());
        l.note(100, 3); // 3 %: between 2 % and 5 %
        assertEquals(2, l.limit(), "hysteresis: still contended");
        l.note(100, 2); // 2 %: not below the raise share
        assertEquals(2, l.limit());
        l.note(100, 1);
        assertEquals(4, l.limit(), "calls stopped contending");
        l.note(100, 3);
        assertEquals(4, l.limit(), "hysteresis the other way");
    }

    @Test
    void eachWindowStartsAfresh() {
        InFlightLimit l = limit();
        l.note(100, 0);
        l.note(99, 0);
        l.note(1, 1); // the second window: 1 of 100
        assertEquals(4, l.limit(), "the first window's calls do not dilute or add to the second's");
        l.note(95, 95);
        l.note(5, 0);
        assertEquals(2, l.limit());
    }

    @Test
    void aLimitOfOneStaysOneAndBadArgumentsAreRefused() {
        InFlightLimit one = new InFlightLimit(1, 1, 10, 0.02, 0.05);
        one.note(10, 10);
        assertEquals(1, one.limit());
        assertThrows(IllegalArgumentException.class, () -> new InFlightLimit(2, 3, 10, 0.02, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new InFlightLimit(0, 0, 10, 0.02, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new InFlightLimit(4, 2, 0, 0.02, 0.05));
        assertThrows(IllegalArgumentException.class, () -> new InFlightLimit(4, 2, 10, 0.06, 0.05));
        assertThrows(IllegalArgumentException.class, () -> limit().note(5, 6));
    }
}

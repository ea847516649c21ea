package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pacer's rests, driven by a clock the test moves. */
class CompactionPacerTest {

    private long now;
    private final List<Long> rests = new ArrayList<>();

    private CompactionPacer pacer(double dutyCycle) {
        return new CompactionPacer(dutyCycle, () -> now, nanos -> {
            rests.add(nanos);
            now += nanos;
        });
    }

    /** Calls worked() {@code calls} times, moving the clock {@code nanosPerCall} before each. */
    private void work(CompactionPacer pacer, int calls, long nanosPerCall) throws InterruptedException {
        for (int i = 0; i < calls; i++) {
            now += nanosPerCall;
            pacer.worked();
        }
    }

    @Test
    void restsThreeTimesItsWorkAtAQuarterOfACore() throws InterruptedException {
        CompactionPacer pacer = pacer(0.25);
        long perCall = CompactionPacer.SLICE_NANOS / CompactionPacer.CALLS_PER_LOOK;
        work(pacer, CompactionPacer.CALLS_PER_LOOK - 1, perCall);
        assertEquals(List.of(), rests, "no rest before the clock is looked at");
        work(pacer, 1, perCall);
        assertEquals(List.of(3 * CompactionPacer.SLICE_NANOS), rests);
        // Ten more slices: ten more rests, and work is a quarter of the wall time.
        long started = now - CompactionPacer.SLICE_NANOS - rests.get(0);
        work(pacer, 10 * CompactionPacer.CALLS_PER_LOOK, perCall);
        assertEquals(11, rests.size());
        assertEquals(11 * 3 * CompactionPacer.SLICE_NANOS, pacer.restedNanos());
        assertEquals(0.25, (double) (11 * CompactionPacer.SLICE_NANOS) / (now - started), 1e-9);
    }

    @Test
    void aSliceOfWorkThatWaitedForACoreRestsInProportion() throws InterruptedException {
        CompactionPacer pacer = pacer(0.5);
        // 64 versions that took 40 ms on the wall (the thread waited for a core): a 40 ms rest.
        work(pacer, CompactionPacer.CALLS_PER_LOOK, 40_000_000L / CompactionPacer.CALLS_PER_LOOK);
        assertEquals(List.of(40_000_000L), rests);
    }

    @Test
    void lessThanASliceBetweenLooksRestsNot() throws InterruptedException {
        CompactionPacer pacer = pacer(0.25);
        work(pacer, 3 * CompactionPacer.CALLS_PER_LOOK, 1_000);
        assertEquals(List.of(), rests);
    }

    @Test
    void aFullCoreAndTheUnpacedPacerNeverRest() throws InterruptedException {
        CompactionPacer full = pacer(1);
        work(full, 100 * CompactionPacer.CALLS_PER_LOOK, 1_000_000);
        CompactionPacer unpaced = CompactionPacer.unpaced();
        for (int i = 0; i < 100 * CompactionPacer.CALLS_PER_LOOK; i++) {
            unpaced.worked();
        }
        assertEquals(List.of(), rests);
        assertEquals(0, unpaced.restedNanos());
    }

    @Test
    void dutyCyclesOutsideZeroToOneAreRefused() {
        for (double bad : new double[] {0, -0.5, 1.01, Double.NaN}) {
            assertThrows(IllegalArgumentException.class, () -> pacer(bad), "duty cycle " + bad);
        }
    }
}

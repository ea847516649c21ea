package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The catalog horizon is the highest catalog CTS reported, whatever the order and the threads. */
class CatalogHorizonOnlyGrowsTest {

    @Test
    void aLowerOrUnknownCtsLowersNothing() {
        CatalogHorizon horizon = new CatalogHorizon();
        assertEquals(0, horizon.afterCts(), "nothing created yet: reads ask for no snapshot");
        horizon.reached(500);
        horizon.reached(300);
        horizon.reached(0);
        assertEquals(500, horizon.afterCts());
        horizon.reached(501);
        assertEquals(501, horizon.afterCts());
        assertThrows(IllegalArgumentException.class, () -> horizon.reached(-1));
        assertEquals(501, horizon.afterCts());
    }

    @Test
    void concurrentCreatesLeaveTheHighest() throws InterruptedException {
        CatalogHorizon horizon = new CatalogHorizon();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int offset = t;
            threads.add(new Thread(() -> {
                for (long cts = 10_000 - offset; cts > 0; cts -= 4) {
                    horizon.reached(cts);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(10_000, horizon.afterCts());
    }
}

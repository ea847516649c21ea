package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The master's event ring: bounded, numbered, and readable from a sequence on. */
class MasterEventsTest {

    @Test
    void keepsTheNewestEventsNumberedInOrder() {
        AtomicLong clock = new AtomicLong(100);
        MasterEvents events = new MasterEvents(3, clock::getAndIncrement);
        for (int i = 1; i <= 5; i++) {
            events.record(MasterEvents.Kind.OTM_JOINED, "otm-" + i, "registered");
        }
        assertEquals(5, events.lastSequence());
        List<MasterEvents.Event> kept = events.after(0, 100);
        assertEquals(List.of(3L, 4L, 5L), kept.stream().map(MasterEvents.Event::sequence).toList());
        assertEquals("otm-3", kept.get(0).subject());
        assertEquals(102, kept.get(0).atMs());
        assertEquals(List.of(5L), events.after(4, 100).stream().map(MasterEvents.Event::sequence).toList());
        assertEquals(List.of(4L, 5L), events.after(0, 2).stream().map(MasterEvents.Event::sequence).toList());
        assertTrue(events.after(5, 100).isEmpty());
    }

    @Test
    void boundsItsSizeAndMessages() {
        MasterEvents events = new MasterEvents(1, () -> 0);
        events.record(MasterEvents.Kind.PARTITION_PARKED, null, "x".repeat(MasterEvents.MESSAGE_LENGTH_MAX * 2));
        MasterEvents.Event e = events.after(0, 1).get(0);
        assertEquals(MasterEvents.MESSAGE_LENGTH_MAX + 3, e.message().length());
        assertEquals("", e.subject());
        assertThrows(IllegalArgumentException.class, () -> new MasterEvents(0, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> new MasterEvents(MasterEvents.CAPACITY_MAX + 1, () -> 0));
        assertThrows(IllegalArgumentException.class, () -> events.after(0, -1));
    }
}

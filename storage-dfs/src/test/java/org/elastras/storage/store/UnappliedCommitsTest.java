package org.elastras.storage.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.elastras.storage.dfs.MemoryDfs;
import org.elastras.storage.wal.WalOptions;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalRecord;
import org.elastras.storage.wal.WalWriter;
import org.junit.jupiter.api.Test;

/**
 * The replay point never passes a logged commit that is not applied yet: alone, and with
 * committers beginning, logging and applying while another thread reads the replay point.
 */
class UnappliedCommitsTest {

    private static WalRecord record(long cts) {
        return new WalRecord(cts, List.of(new WalRecord.Mutation(1, ("k" + cts).getBytes(StandardCharsets.UTF_8),
                "v".getBytes(StandardCharsets.UTF_8))));
    }

    @Test
    void theReplayPointIsTheOldestOpenTicketsPositionUntilItCloses() throws Exception {
        WalWriter wal = WalWriter.open(new MemoryDfs(), "wal/a", WalOptions.DEFAULT);
        UnappliedCommits cursor = new UnappliedCommits("a", wal);
        assertEquals(wal.endPosition(), cursor.replayPoint(), "nothing open: the log's end");
        UnappliedCommits.Ticket first = cursor.begin();
        WalPosition firstAt = wal.append(record(1)).join();
        UnappliedCommits.Ticket second = cursor.begin();
        wal.append(record(2)).join();
        assertEquals(2, cursor.inFlight());
        assertEquals(firstAt, cursor.replayPoint(), "the first commit is not applied");
        first.close();
        first.close();
        assertEquals(1, cursor.inFlight(), "a second close changes nothing");
        assertTrue(cursor.replayPoint().compareTo(firstAt) > 0, "past the first commit once it is applied");
        second.close();
        assertEquals(wal.endPosition(), cursor.replayPoint());
        assertEquals(0, cursor.inFlight());
        wal.close();
    }

    @Test
    void underConcurrentCommitsNoReplayPointPassesAnUnappliedRecord() throws Exception {
        WalWriter wal = WalWriter.open(new MemoryDfs(), "wal/a", WalOptions.DEFAULT);
        UnappliedCommits cursor = new UnappliedCommits("a", wal);
        // Logged and not applied yet: removed before the ticket closes.
        ConcurrentHashMap<Long, WalPosition> unapplied = new ConcurrentHashMap<>();
        AtomicLong cts = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<String> violation = new AtomicReference<>();
        List<Thread> committers = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            committers.add(new Thread(() -> {
                for (int i = 0; i < 3_000; i++) {
                    try (UnappliedCommits.Ticket ticket = cursor.begin()) {
                        long c = cts.incrementAndGet();
                        unapplied.put(c, wal.append(record(c)).join());
                        unapplied.remove(c);
                    }
                }
            }));
        }
        AtomicLong samples = new AtomicLong();
        Thread reader = new Thread(() -> {
            while (!stop.get() && violation.get() == null) {
                WalPosition replay = cursor.replayPoint();
                for (var e : unapplied.entrySet()) {
                    if (e.getValue().compareTo(replay) < 0) {
                        violation.set("replay point " + replay + " is past unapplied CTS " + e.getKey() + " at " + e.getValue());
                    }
                }
                samples.incrementAndGet();
            }
        });
        reader.start();
        committers.forEach(Thread::start);
        for (Thread t : committers) {
            t.join();
        }
        stop.set(true);
        reader.join();

        assertNull(violation.get());
        assertTrue(samples.get() > 10, "the reader sampled while commits ran: " + samples.get());
        assertEquals(0, cursor.inFlight());
        assertEquals(wal.endPosition(), cursor.replayPoint());
        wal.close();
    }
}

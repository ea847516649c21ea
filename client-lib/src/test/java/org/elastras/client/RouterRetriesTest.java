package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.MoveDestination;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The routing loop with a scripted catalog, scripted failures and a manual clock: which failures
 * are retried, where, and which are reported.
 */
class RouterRetriesTest {

    private final TestCatalogs.ScriptedReader reader = new TestCatalogs.ScriptedReader();
    private final TestCatalogs.ManualClock clock = new TestCatalogs.ManualClock();
    private final CachingPartitionLocator locator = new CachingPartitionLocator(reader, 1_000, clock::nanoTime);
    /** Clients of ports nothing listens on: never used by the scripted attempts, only handed to them. */
    private final OtmConnections connections = new OtmConnections(8, (host, port) -> new OtmClient(host, port));
    private final Router router = new Router(locator, connections, new RetryPolicy(5_000, 100, 10, 100), clock,
            new Random(3));
    private final byte[] key = TestCatalogs.warehouse(150);

    RouterRetriesTest() {
        reader.shop = new CatalogSnapshot(TestCatalogs.shop(), TestCatalogs.shopRows(new int[] {100, 200}, "otm-a",
                "otm-b", "otm-a"), TestCatalogs.addresses("otm-a", "otm-b", "otm-c"));
    }

    @AfterEach
    void close() {
        connections.close();
    }

    @Test
    void notOwnerDropsTheLocationAndTheRetryGoesToTheNewOwner() {
        List<String> visited = new ArrayList<>();
        String result = router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            visited.add(location.otmId());
            if (location.otmId().equals("otm-b")) {
                // The partition moved to otm-c, and the catalog says so by now.
                reader.shop = new CatalogSnapshot(TestCatalogs.shop(), TestCatalogs.shopRows(new int[] {100, 200},
                        "otm-a", "otm-c", "otm-a"), TestCatalogs.addresses("otm-a", "otm-b", "otm-c"));
                throw new ElasTrasException(ErrorCode.NOT_OWNER, "not here");
            }
            return "done at " + location.otmId();
        });
        assertEquals("done at otm-c", result);
        assertEquals(List.of("otm-b", "otm-c"), visited);
        assertEquals(2, reader.reads.get(), "one read at start, one after NOT_OWNER");
        assertEquals(1, clock.sleeps.size());
    }

    @Test
    void aHandOverHintSendsTheRetryToTheNextOwnerAtOnceWithoutTheCatalog() {
        List<String> visited = new ArrayList<>();
        List<Long> epochs = new ArrayList<>();
        String result = router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            visited.add(location.otmId() + "@" + location.port());
            epochs.add(location.epoch());
            if (location.otmId().equals("otm-b")) {
                // Handed over live; the catalog still names otm-b.
                throw new ElasTrasException(ErrorCode.NOT_OWNER, "handed over", null,
                        new MoveDestination("otm-c", "127.0.0.1", 7003));
            }
            return "done at " + location.otmId();
        });
        assertEquals("done at otm-c", result);
        assertEquals(List.of("otm-b@" + portOf("otm-b"), "otm-c@7003"), visited);
        assertEquals(epochs.get(0) + 1, epochs.get(1), "the next owner's epoch");
        assertEquals(1, reader.reads.get(), "the hint needs no catalog read");
        assertEquals(0, clock.sleeps.size(), "and no backoff");

        // The hint replaced the cached location: the next request goes to the next owner too, still
        // without reading the catalog.
        PartitionLocation next = router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(),
                (location, otm) -> location);
        assertEquals("otm-c@7003, epoch " + epochs.get(1), next.otmId() + "@" + next.port() + ", epoch " + next.epoch());
        assertEquals(1, reader.reads.get());

        // Should the next owner disown it, the catalog decides again.
        List<String> after = new ArrayList<>();
        router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            after.add(location.otmId());
            if (location.otmId().equals("otm-c")) {
                throw new ElasTrasException(ErrorCode.NOT_OWNER, "not here");
            }
            return location;
        });
        assertEquals(List.of("otm-c", "otm-b"), after);
        assertEquals(2, reader.reads.get());
    }

    @Test
    void hintsThatPointBackAndForthAreFollowedTwiceThenTheCatalogDecides() {
        List<String> visited = new ArrayList<>();
        String result = router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            visited.add(location.otmId());
            if (visited.size() <= 3) {
                String other = location.otmId().equals("otm-b") ? "otm-c" : "otm-b";
                throw new ElasTrasException(ErrorCode.NOT_OWNER, "not here", null,
                        new MoveDestination(other, "127.0.0.1", 7000));
            }
            return "done at " + location.otmId();
        });
        assertEquals(List.of("otm-b", "otm-c", "otm-b", "otm-b"), visited,
                "two hints followed; the third NOT_OWNER reads the catalog, which still names otm-b");
        assertEquals("done at otm-b", result);
        assertEquals(1, clock.sleeps.size(), "one backoff, after the hints ran out");
        assertEquals(2, reader.reads.get());
    }

    private int portOf(String otmId) {
        return TestCatalogs.addresses("otm-a", "otm-b", "otm-c").get(otmId).port();
    }

    @Test
    void anUnreachableOtmLosesItsConnectionAndIsRetriedUntilTheCatalogMovesOn() {
        AtomicInteger attempts = new AtomicInteger();
        String result = router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            if (attempts.incrementAndGet() < 4) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "connection refused");
            }
            return "ok";
        });
        assertEquals("ok", result);
        assertEquals(4, reader.reads.get(), "every routing failure reads the catalog again");
        assertEquals(4, connections.opened(), "the refused connection was dropped each time");
        assertEquals(3, clock.sleeps.size());
    }

    @Test
    void aPartitionChangingHandsIsRetriedAtShortPausesAndAnUnreachableOtmAtGrowingOnes() {
        // This router's backoff doubles from 10 ms to 100 ms: a move's NOT_SERVING pauses at most 50.
        AtomicInteger attempts = new AtomicInteger();
        String result = router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            if (attempts.incrementAndGet() <= 8) {
                throw new ElasTrasException(attempts.get() % 2 == 0 ? ErrorCode.NOT_OWNER : ErrorCode.NOT_SERVING,
                        "closing for a move");
            }
            return "ok";
        });
        assertEquals("ok", result);
        assertEquals(8, clock.sleeps.size());
        assertTrue(clock.sleeps.stream().allMatch(ms -> ms <= Router.MOVING_BACKOFF_MAX_MS), "pauses " + clock.sleeps);
        assertTrue(clock.sleeps.subList(4, 8).stream().allMatch(ms -> ms >= Router.MOVING_BACKOFF_MAX_MS / 2),
                "still backing off, up to the cap: " + clock.sleeps);

        clock.sleeps.clear();
        attempts.set(0);
        router.run("test", "SHOP", key, Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
            if (attempts.incrementAndGet() <= 8) {
                throw new ElasTrasException(ErrorCode.UNREACHABLE, "connection refused");
            }
            return "ok";
        });
        assertTrue(clock.sleeps.stream().mapToLong(Long::longValue).max().getAsLong() > Router.MOVING_BACKOFF_MAX_MS,
                "an unreachable OTM keeps the full backoff: " + clock.sleeps);
    }

    @Test
    void aLostAnswerIsReportedOnceForAProcedureAndResentWhenSafe() {
        AtomicInteger sent = new AtomicInteger();
        OutcomeUnknownException e = assertThrows(OutcomeUnknownException.class, () -> router.run("call INC", "SHOP", key,
                Router.Resend.NEVER, clock.nanoTime(), (location, otm) -> {
                    sent.incrementAndGet();
                    throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "connection reset after send");
                }));
        assertEquals(1, sent.get(), "never re-sent");
        assertEquals(ErrorCode.OUTCOME_UNKNOWN, e.code());
        assertTrue(e.getMessage().contains("call INC") && e.getMessage().contains("otm-b"), e.getMessage());

        sent.set(0);
        String r = router.run("call IDEMPOTENT", "SHOP", key, Router.Resend.SAFE, clock.nanoTime(), (location, otm) -> {
            if (sent.incrementAndGet() == 1) {
                throw new ElasTrasException(ErrorCode.OUTCOME_UNKNOWN, "timed out");
            }
            return "ok";
        });
        assertEquals("ok", r);
        assertEquals(2, sent.get());
    }

    @Test
    void permanentErrorsAreThrownAtOnce() {
        AtomicInteger sent = new AtomicInteger();
        ElasTrasException e = assertThrows(ElasTrasException.class, () -> router.run("call X", "SHOP", key,
                Router.Resend.SAFE, clock.nanoTime(), (location, otm) -> {
                    sent.incrementAndGet();
                    throw new ElasTrasException(ErrorCode.UNKNOWN_PROCEDURE, "no such procedure");
                }));
        assertEquals(ErrorCode.UNKNOWN_PROCEDURE, e.code());
        assertEquals(1, sent.get());
        assertEquals(0, clock.sleeps.size());
    }

    @Test
    void theDeadlineEndsRetriesWithWhatWasTriedAndTheLastError() {
        AtomicInteger sent = new AtomicInteger();
        long started = clock.nanoTime();
        RetriesExhaustedException e = assertThrows(RetriesExhaustedException.class, () -> router.run("call HOT", "SHOP",
                key, Router.Resend.NEVER, started, (location, otm) -> {
                    sent.incrementAndGet();
                    throw new ElasTrasException(ErrorCode.OVERLOADED, "queue full");
                }));
        long elapsedMs = (clock.nanoTime() - started) / 1_000_000;
        assertTrue(elapsedMs >= 4_999 && elapsedMs <= 5_000, "gave up " + elapsedMs + " ms in");
        assertEquals(sent.get(), e.attempts());
        assertEquals(ErrorCode.OVERLOADED, e.code());
        assertTrue(e.getMessage().contains("call HOT") && e.getMessage().contains("otm-b")
                && e.getMessage().contains("queue full") && e.getMessage().contains("5000 ms"), e.getMessage());
        assertEquals(1, reader.reads.get(), "overload keeps the location");
    }

    @Test
    void anUnknownDatabaseIsNotRetried() {
        ElasTrasException e = assertThrows(ElasTrasException.class,
                () -> router.encodeRootKey("NOPE", List.of(1), clock.nanoTime()));
        assertEquals(ErrorCode.UNKNOWN_DATABASE, e.code());
        assertEquals(1, reader.reads.get());
    }
}

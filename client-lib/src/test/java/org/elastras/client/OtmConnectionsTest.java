package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.elastras.catalog.key.KeyRange;
import org.junit.jupiter.api.Test;

/** The connection pool: one per OTM, bounded, and never closed under a request that uses it. */
class OtmConnectionsTest {

    private final List<OtmClient> made = new ArrayList<>();
    private final OtmConnections pool = new OtmConnections(2, (host, port) -> {
        OtmClient c = new OtmClient(host, port);
        made.add(c);
        return c;
    });

    private static PartitionLocation at(String otm, int port) {
        return new PartitionLocation("SHOP", 1, 1, KeyRange.ALL, otm, "127.0.0.1", port);
    }

    private static boolean closed(OtmClient c) {
        try {
            c.status();
            return false;
        } catch (IllegalStateException e) {
            return e.getMessage().contains("closed");
        } catch (RuntimeException e) {
            return false; // Open: it tried to connect (nothing listens there).
        }
    }

    @Test
    void oneConnectionPerOtmAndARetiredOneClosesWhenItsLastUserReleasesIt() {
        OtmConnections.Lease a1 = pool.acquire(at("otm-a", 1));
        OtmConnections.Lease a2 = pool.acquire(at("otm-a", 1));
        assertSame(a1.client(), a2.client());
        assertEquals(1, pool.opened());

        pool.retire(a1);
        assertEquals(0, pool.size());
        OtmConnections.Lease a3 = pool.acquire(at("otm-a", 1));
        assertNotSame(a1.client(), a3.client(), "a retired connection is not handed out again");
        pool.release(a1);
        assertEquals(false, closed(a2.client()), "still used by a2");
        pool.release(a2);
        assertEquals(true, closed(a1.client()), "closed once its last user released it");
        pool.release(a3);
        assertThrows(IllegalStateException.class, () -> pool.release(a3));
        pool.close();
    }

    @Test
    void theBoundEvictsTheLeastRecentlyUsedOtmAndGoneOtmsAreDropped() {
        pool.release(pool.acquire(at("otm-a", 1)));
        pool.release(pool.acquire(at("otm-b", 2)));
        pool.release(pool.acquire(at("otm-a", 1)));
        pool.release(pool.acquire(at("otm-c", 3)));
        assertEquals(Set.of("otm-a", "otm-c"), pool.addresses().keySet(), "otm-b was least recently used");
        assertEquals(true, closed(made.get(1)));

        // The OTM id came back on another port: a new connection.
        pool.release(pool.acquire(at("otm-a", 9)));
        assertEquals(9, pool.addresses().get("otm-a").port());
        assertEquals(true, closed(made.get(0)));

        pool.retainOnly(Set.of("otm-a"));
        assertEquals(Set.of("otm-a"), pool.addresses().keySet());
        assertEquals(true, closed(made.get(2)));
        pool.close();
        assertThrows(IllegalStateException.class, () -> pool.acquire(at("otm-a", 9)));
    }
}

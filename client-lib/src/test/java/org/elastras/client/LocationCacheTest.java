package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.client.protocol.MoveDestination;
import org.junit.jupiter.api.Test;

class LocationCacheTest {

    private static final int[] BOUNDS = {100, 200};

    @Test
    void invalidatingALocationDropsOnlyThatPartitionAndOnlyIfItIsStillTheCachedOne() {
        LocationCache cache = new LocationCache(100);
        cache.put(new CatalogSnapshot(TestCatalogs.shop(), TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-b", "otm-c"),
                TestCatalogs.addresses("otm-a", "otm-b", "otm-c")));
        assertEquals(3, cache.size());
        PartitionLocation p3 = cache.find("shop", TestCatalogs.warehouse(150)).location();
        assertEquals(3, p3.partitionId());
        assertEquals("otm-b", p3.otmId());

        // A location of an older epoch (someone held it from before a reload) drops nothing.
        PartitionLocation older = new PartitionLocation("SHOP", 3, 0, p3.range(), "otm-b", p3.host(), p3.port());
        assertFalse(cache.invalidate(older));
        assertTrue(cache.find("SHOP", TestCatalogs.warehouse(150)).found());

        assertTrue(cache.invalidate(p3));
        assertFalse(cache.invalidate(p3), "dropped once");
        assertEquals(2, cache.size());
        LocationCache.Result miss = cache.find("SHOP", TestCatalogs.warehouse(150));
        assertFalse(miss.found());
        assertTrue(miss.missReason().contains("no cached partition"), miss.missReason());
        // The neighbours stay cached.
        assertEquals(2, cache.find("SHOP", TestCatalogs.warehouse(99)).location().partitionId());
        assertEquals(4, cache.find("SHOP", TestCatalogs.warehouse(200)).location().partitionId());

        // A reload brings the partition back, now at its new owner.
        List<MetaRow> moved = TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-c", "otm-c");
        cache.put(new CatalogSnapshot(TestCatalogs.shop(), moved, TestCatalogs.addresses("otm-a", "otm-b", "otm-c")));
        assertEquals("otm-c", cache.find("SHOP", TestCatalogs.warehouse(150)).location().otmId());
        assertEquals(3, cache.size());
    }

    @Test
    void aHandOverReplacesTheStaleRowWithTheNextOwnerAndOnlyThat() {
        LocationCache cache = new LocationCache(100);
        cache.put(new CatalogSnapshot(TestCatalogs.shop(), TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-b", "otm-c"),
                TestCatalogs.addresses("otm-a", "otm-b", "otm-c")));
        PartitionLocation p3 = cache.find("SHOP", TestCatalogs.warehouse(150)).location();
        PartitionLocation p2 = cache.find("SHOP", TestCatalogs.warehouse(99)).location();
        // otm-d is not in the cached addresses yet: the hint brings its address.
        PartitionLocation next = p3.handedOverTo(new MoveDestination("otm-d", "10.0.0.9", 7009));

        assertTrue(cache.handedOver(p3, next));
        PartitionLocation found = cache.find("SHOP", TestCatalogs.warehouse(150)).location();
        assertEquals(next.toString(), found.toString());
        assertEquals(p3.epoch() + 1, found.epoch());
        assertEquals("10.0.0.9:7009", found.host() + ":" + found.port());
        assertEquals(p2.toString(), cache.find("SHOP", TestCatalogs.warehouse(99)).location().toString(),
                "the neighbours are untouched");
        assertEquals(3, cache.size());

        // A late hand-over from the same stale location, or a late invalidation of it, changes nothing.
        assertFalse(cache.handedOver(p3, p3.handedOverTo(new MoveDestination("otm-a", "h", 1))));
        assertFalse(cache.invalidate(p3));
        assertEquals("otm-d", cache.find("SHOP", TestCatalogs.warehouse(150)).location().otmId());
        // A request that fails at the next owner drops the row: the next lookup reads the catalog.
        assertTrue(cache.invalidate(found));
        assertFalse(cache.find("SHOP", TestCatalogs.warehouse(150)).found());
        assertFalse(cache.handedOver(p3, next), "nothing cached to replace");

        assertThrows(IllegalArgumentException.class, () -> cache.handedOver(p2, next), "another partition");
        assertThrows(IllegalArgumentException.class, () -> cache.handedOver(next, p3), "an older epoch");
    }

    @Test
    void aPartitionWhoseOwnerIsNotRegisteredIsAMissNotALocation() {
        LocationCache cache = new LocationCache(100);
        cache.put(new CatalogSnapshot(TestCatalogs.shop(), TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-dead", "otm-a"),
                TestCatalogs.addresses("otm-a")));
        LocationCache.Result r = cache.find("SHOP", TestCatalogs.warehouse(100));
        assertFalse(r.found());
        assertTrue(r.missReason().contains("otm-dead") && r.missReason().contains("not registered"), r.missReason());
        assertTrue(cache.find("SHOP", TestCatalogs.warehouse(99)).found());
    }

    @Test
    void theBoundEvictsTheLeastRecentlyUsedOtherDatabase() {
        LocationCache cache = new LocationCache(4);
        MetaRow bank = new MetaRow(new PartitionDescriptor("BANK", new PartitionId(1), KeyRange.ALL, 1), "otm-a",
                PartitionState.OPEN);
        cache.put(new CatalogSnapshot(TestCatalogs.bank(), List.of(bank), TestCatalogs.addresses("otm-a")));
        assertEquals(1, cache.size());
        assertTrue(cache.find("BANK", new byte[0]).found(), "a tenant is looked up with the empty key");
        cache.put(new CatalogSnapshot(TestCatalogs.shop(), TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-a", "otm-a"),
                Map.of("otm-a", new OtmAddress("h", 1))));
        assertEquals(4, cache.size(), "1 + 3 fits the bound of 4");
        cache.put(new CatalogSnapshot(TestCatalogs.shop(),
                TestCatalogs.shopRows(new int[] {100, 200, 300}, "otm-a", "otm-a", "otm-a", "otm-a"),
                Map.of("otm-a", new OtmAddress("h", 1))));
        assertEquals(4, cache.size(), "SHOP now has 4 partitions: BANK was evicted");
        assertFalse(cache.holds("BANK"));
        assertTrue(cache.holds("SHOP"));
    }
}

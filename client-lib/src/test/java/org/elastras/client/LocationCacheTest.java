package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
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

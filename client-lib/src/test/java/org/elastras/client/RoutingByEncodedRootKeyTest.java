package org.elastras.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.junit.jupiter.api.Test;

/** Root keys route to the partition whose [start, end) holds their encoding, including at the boundaries. */
class RoutingByEncodedRootKeyTest {

    private static final int[] BOUNDS = {-5, 0, 100};

    private static CachingPartitionLocator locator(TestCatalogs.ScriptedReader reader) {
        return new CachingPartitionLocator(reader, 1_000, System::nanoTime);
    }

    @Test
    void keysAtAndAroundEveryBoundaryGoToTheRightPartitionAfterOneCatalogRead() {
        TestCatalogs.ScriptedReader reader = new TestCatalogs.ScriptedReader();
        reader.shop = new CatalogSnapshot(TestCatalogs.shop(),
                TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-b", "otm-a", "otm-b"), TestCatalogs.addresses("otm-a", "otm-b"));
        CachingPartitionLocator locator = locator(reader);
        int[][] expected = {
                {Integer.MIN_VALUE, 2}, {-6, 2}, {-5, 3}, {-1, 3}, {0, 4}, {99, 4}, {100, 5}, {Integer.MAX_VALUE, 5}};
        for (int[] e : expected) {
            byte[] key = RootKeys.encode(TestCatalogs.shop(), List.of(e[0]));
            PartitionLocation l = locator.locate("shop", key);
            assertEquals(e[1], l.partitionId(), "W_ID " + e[0]);
            assertTrue(l.covers(key));
        }
        // Widened like on the wire: a Long for an INT column routes the same way.
        assertEquals(4, locator.locate("SHOP", RootKeys.encode(TestCatalogs.shop(), List.of(7L))).partitionId());
        assertEquals(1, reader.reads.get(), "one read prefetched every partition of the database");
    }

    @Test
    void anInvalidatedLocationIsReadAgainOnceAndFollowsTheMove() {
        TestCatalogs.ScriptedReader reader = new TestCatalogs.ScriptedReader();
        reader.shop = new CatalogSnapshot(TestCatalogs.shop(),
                TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-b", "otm-a", "otm-b"), TestCatalogs.addresses("otm-a", "otm-b"));
        CachingPartitionLocator locator = locator(reader);
        byte[] key = RootKeys.encode(TestCatalogs.shop(), List.of(50));
        PartitionLocation before = locator.locate("SHOP", key);
        assertEquals("otm-a", before.otmId());
        reader.shop = new CatalogSnapshot(TestCatalogs.shop(),
                TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-b", "otm-b", "otm-b"), TestCatalogs.addresses("otm-a", "otm-b"));
        assertEquals("otm-a", locator.locate("SHOP", key).otmId(), "cached until told otherwise");
        locator.invalidate(before);
        assertEquals("otm-b", locator.locate("SHOP", key).otmId());
        assertEquals(2, reader.reads.get());
        assertEquals("otm-b", locator.locate("SHOP", key).otmId());
        assertEquals(2, reader.reads.get());
    }

    @Test
    void aPartitionWithoutALiveOwnerIsRetryableNotServing() {
        TestCatalogs.ScriptedReader reader = new TestCatalogs.ScriptedReader();
        reader.shop = new CatalogSnapshot(TestCatalogs.shop(),
                TestCatalogs.shopRows(BOUNDS, "otm-a", "otm-gone", "otm-a", "otm-a"), TestCatalogs.addresses("otm-a"));
        ElasTrasException e = assertThrows(ElasTrasException.class,
                () -> locator(reader).locate("SHOP", RootKeys.encode(TestCatalogs.shop(), List.of(-5))));
        assertEquals(ErrorCode.NOT_SERVING, e.code());
        assertTrue(e.retryable());
        assertTrue(e.getMessage().contains("otm-gone"), e.getMessage());
    }

    @Test
    void rootKeysOfTheWrongShapeAreRefusedWithTheColumnsNamed() {
        ElasTrasException arity = assertThrows(ElasTrasException.class,
                () -> RootKeys.encode(TestCatalogs.shop(), List.of(1, 2)));
        assertEquals(ErrorCode.TYPE_MISMATCH, arity.code());
        assertTrue(arity.getMessage().contains("W_ID INT") && arity.getMessage().contains("got 2"), arity.getMessage());
        ElasTrasException type = assertThrows(ElasTrasException.class,
                () -> RootKeys.encode(TestCatalogs.shop(), List.of("seven")));
        assertEquals(ErrorCode.TYPE_MISMATCH, type.code());
        assertTrue(type.getMessage().contains("W_ID"), type.getMessage());
        ElasTrasException tenant = assertThrows(ElasTrasException.class,
                () -> RootKeys.encode(TestCatalogs.bank(), List.of(1)));
        assertTrue(tenant.getMessage().contains("single-partition"), tenant.getMessage());
        assertEquals(0, RootKeys.encode(TestCatalogs.bank(), List.of()).length);
    }
}

package org.elastras.catalog.partition;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.TpccSchema;
import org.junit.jupiter.api.Test;

/** Initial ranges cover the root key space without gaps or overlaps, and each warehouse group lands whole. */
class InitialPartitionsTest {

    private final DatabaseSchema tpcc = TpccSchema.database("tpcc");

    @Test
    void warehousesInGroupsOfKGetContiguousRangesCoveringEverything() {
        List<List<Object>> boundaries = InitialPartitions.groupBoundaries(1, 10, 3);
        assertEquals(List.of(List.of(4L), List.of(7L), List.of(10L)), boundaries);
        List<PartitionDescriptor> parts = InitialPartitions.tree(tpcc, boundaries, new PartitionId(100));
        assertEquals(4, parts.size());
        KeyCodec root = KeyCodec.forPartitionKey(tpcc);
        KeyCodec stock = KeyCodec.forPrimaryKey(tpcc.table("STOCK"));
        for (int w = -5; w <= 20; w++) {
            int expected = w < 4 ? 0 : w < 7 ? 1 : w < 10 ? 2 : 3;
            for (int p = 0; p < parts.size(); p++) {
                boolean holds = parts.get(p).range().contains(root.encode(List.of(w)));
                assertEquals(p == expected, holds, "warehouse " + w + " partition " + p);
                assertEquals(holds, parts.get(p).range().contains(stock.encode(List.of(w, 99_999))), "stock of warehouse " + w);
            }
        }
        assertEquals(new PartitionId(103), parts.get(3).id());
        assertEquals("TPCC", parts.get(0).database());
        assertEquals(0, parts.get(0).epoch());
        assertTrue(parts.get(3).range().endUnbounded());
        for (int p = 0; p + 1 < parts.size(); p++) {
            assertArrayEquals(parts.get(p + 1).range().start(), parts.get(p).range().end(), "no gap after partition " + p);
            assertFalse(parts.get(p).range().overlaps(parts.get(p + 1).range()));
        }
        assertEquals(List.of(), InitialPartitions.groupBoundaries(1, 3, 5), "one group: no boundary");
    }

    @Test
    void badBoundariesAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InitialPartitions.tree(tpcc, List.of(List.of(5), List.of(5)), new PartitionId(1)));
        assertTrue(e.getMessage().contains("boundary [5]") && e.getMessage().contains("strictly increasing"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> InitialPartitions.tree(tpcc, List.of(List.of("x")), new PartitionId(1)));
        assertTrue(e.getMessage().contains("column W_ID: expected INT"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> InitialPartitions.groupBoundaries(1, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> InitialPartitions.groupBoundaries(0, 10_000_000, 1));
    }

    @Test
    void aTenantIsOnePartitionCoveringEverything() {
        DatabaseSchema tenant = DatabaseSchema.singlePartition("acme")
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).key("ID")).build();
        PartitionDescriptor p = InitialPartitions.singlePartition(tenant, new PartitionId(9));
        assertEquals(KeyRange.ALL, p.range());
        assertEquals(1, p.nextEpoch().epoch());
        assertThrows(IllegalArgumentException.class, () -> InitialPartitions.singlePartition(tpcc, new PartitionId(1)));
        assertThrows(IllegalArgumentException.class, () -> InitialPartitions.tree(tenant, List.of(), new PartitionId(1)));
        assertThrows(IllegalArgumentException.class, () -> new PartitionId(-1));
        assertThrows(IllegalArgumentException.class, () -> new PartitionDescriptor("acme", new PartitionId(1), KeyRange.ALL, -1));
    }
}

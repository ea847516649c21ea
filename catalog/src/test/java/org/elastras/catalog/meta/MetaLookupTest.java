package org.elastras.catalog.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import org.elastras.catalog.key.KeyBytes;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.InitialPartitions;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.catalog.schema.TpccSchema;
import org.junit.jupiter.api.Test;

/** The reverse-seek lookup agrees with a linear scan over several databases, tenants and holes. */
class MetaLookupTest {

    @Test
    void reverseSeekFindsThePartitionHoldingEachRootKey() {
        long seed = Long.getLong("elastras.test.seed", System.nanoTime());
        System.out.println("MetaLookupTest seed " + seed);
        Random random = new Random(seed);
        DatabaseSchema tpcc = TpccSchema.database("tpcc");
        DatabaseSchema other = TpccSchema.database("tpcc2");
        DatabaseSchema tenant = DatabaseSchema.singlePartition("tpcc1")
                .plain("A", t -> t.column("ID", ColumnType.INT).key("ID")).build();
        List<MetaRow> rows = new ArrayList<>();
        long[] nextId = {1};
        for (DatabaseSchema db : List.of(tpcc, other)) {
            int group = 1 + random.nextInt(5);
            for (PartitionDescriptor p : InitialPartitions.tree(db, InitialPartitions.groupBoundaries(1, 40, group),
                    new PartitionId(nextId[0]))) {
                rows.add(new MetaRow(p, "otm-" + random.nextInt(3), PartitionState.OPEN));
                nextId[0] = p.id().value() + 1;
            }
        }
        rows.add(new MetaRow(InitialPartitions.singlePartition(tenant, new PartitionId(nextId[0])), null, PartitionState.UNASSIGNED));
        // Leave a hole in tpcc2: drop one partition that is not the first.
        List<MetaRow> other2 = rows.stream().filter(r -> r.partition().database().equals("TPCC2")).toList();
        MetaRow dropped = other2.size() > 1 ? other2.get(1 + random.nextInt(other2.size() - 1)) : null;
        rows.remove(dropped);
        rows.sort(Comparator.comparing(MetaRowCodec::encodeKey, KeyBytes::compare));
        MetaLookup lookup = new MetaLookup(rows);
        KeyCodec root = KeyCodec.forPartitionKey(tpcc);
        for (String db : List.of("tpcc", "TPCC2", "tpcc1", "tpc", "tpcc3")) {
            for (int w = -3; w <= 45; w++) {
                byte[] key = db.equals("tpcc1") ? new byte[0] : root.encode(List.of(w));
                Optional<MetaRow> expected = rows.stream()
                        .filter(r -> r.partition().database().equalsIgnoreCase(db) && r.partition().range().contains(key))
                        .findFirst();
                assertEquals(expected, lookup.locate(db, key), "seed " + seed + ": " + db + " warehouse " + w
                        + " (dropped " + (dropped == null ? "none" : dropped.partition().range()) + ")");
            }
        }
        assertEquals(Optional.empty(), lookup.locate("TPCC2", dropped == null ? new byte[] {0} : dropped.partition().range().start()));
    }

    @Test
    void rowsMustBeSorted() {
        MetaRow a = new MetaRow(new PartitionDescriptor("A", new PartitionId(1), KeyRange.ALL, 0), null, PartitionState.UNASSIGNED);
        MetaRow b = new MetaRow(new PartitionDescriptor("B", new PartitionId(2), KeyRange.ALL, 0), null, PartitionState.UNASSIGNED);
        assertThrows(IllegalArgumentException.class, () -> new MetaLookup(List.of(b, a)));
        assertThrows(IllegalArgumentException.class, () -> new MetaLookup(List.of(a, a)));
        assertEquals(Optional.of(b), new MetaLookup(List.of(a, b)).locate("b", new byte[] {5}));
    }
}

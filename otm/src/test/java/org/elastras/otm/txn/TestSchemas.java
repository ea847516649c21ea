package org.elastras.otm.txn;

import java.util.List;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;

/** A small TPC-C-like tree schema for the typed-layer tests. */
final class TestSchemas {

    private TestSchemas() {
    }

    /** WAREHOUSE (root, key W_ID), DISTRICT (child, key W_ID, D_ID), ITEM (global). */
    static final DatabaseSchema SHOP = DatabaseSchema.tree("shop")
            .root("warehouse", t -> t.column("w_id", ColumnType.INT).column("name", ColumnType.varchar(20))
                    .column("ytd", ColumnType.BIGINT).key("w_id"))
            .child("district", t -> t.column("w_id", ColumnType.INT).column("d_id", ColumnType.INT)
                    .column("next_o_id", ColumnType.INT).nullable("note", ColumnType.varchar(40)).key("w_id", "d_id"))
            .global("item", t -> t.column("i_id", ColumnType.INT).column("price", ColumnType.DOUBLE).key("i_id"))
            .build();

    /** The partition of SHOP holding warehouses [fromW, toW). */
    static PartitionDescriptor shopPartition(long id, int fromW, int toW) {
        KeyCodec rootKey = KeyCodec.forPartitionKey(SHOP);
        return new PartitionDescriptor("shop", new PartitionId(id),
                new KeyRange(rootKey.encode(List.of(fromW)), rootKey.encode(List.of(toW))), 0);
    }
}

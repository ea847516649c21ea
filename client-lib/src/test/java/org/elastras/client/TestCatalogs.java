package org.elastras.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.elastras.catalog.key.KeyCodec;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;

/** Schemas, catalog rows and a scripted catalog reader for the client's logic tests. */
final class TestCatalogs {

    private TestCatalogs() {
    }

    /** SHOP: WAREHOUSE(W_ID INT) root, STOCK(W_ID, I_ID) child. */
    static DatabaseSchema shop() {
        return DatabaseSchema.tree("SHOP")
                .root("WAREHOUSE", t -> t.column("W_ID", ColumnType.INT).column("W_NAME", ColumnType.varchar(20)).key("W_ID"))
                .child("STOCK", t -> t.column("W_ID", ColumnType.INT).column("I_ID", ColumnType.INT)
                        .column("QUANTITY", ColumnType.INT).key("W_ID", "I_ID"))
                .build();
    }

    static DatabaseSchema bank() {
        return DatabaseSchema.singlePartition("BANK")
                .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build();
    }

    static byte[] warehouse(int w) {
        return KeyCodec.forPartitionKey(shop()).encode(List.of(w));
    }

    /**
     * SHOP split at the given warehouse ids: partition ids 2, 3, ... from the lowest range up, the
     * i-th owned by {@code owners[i]} at epoch 1.
     */
    static List<MetaRow> shopRows(int[] boundaries, String... owners) {
        List<MetaRow> rows = new ArrayList<>();
        byte[] start = new byte[0];
        for (int i = 0; i <= boundaries.length; i++) {
            byte[] end = i < boundaries.length ? warehouse(boundaries[i]) : new byte[0];
            rows.add(new MetaRow(new PartitionDescriptor("SHOP", new PartitionId(2 + i), new KeyRange(start, end), 1),
                    owners[i], PartitionState.OPEN));
            start = end;
        }
        return rows;
    }

    static Map<String, OtmAddress> addresses(String... otms) {
        Map<String, OtmAddress> out = new HashMap<>();
        for (int i = 0; i < otms.length; i++) {
            out.put(otms[i], new OtmAddress("127.0.0.1", 7400 + i));
        }
        return out;
    }

    /** A catalog reader that answers the snapshot it is given now, and counts reads. */
    static final class ScriptedReader implements CatalogReader {
        volatile CatalogSnapshot shop;
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public CatalogSnapshot read(String database) {
            reads.incrementAndGet();
            if (!database.equalsIgnoreCase("SHOP") || shop == null) {
                throw new ElasTrasException(ErrorCode.UNKNOWN_DATABASE, "database " + database + " is not in the catalog");
            }
            return shop;
        }

        @Override
        public void close() {
        }
    }

    /** A clock that moves only when someone sleeps on it. */
    static final class ManualClock implements ClientClock {
        long nanos = 1_000_000_000L;
        final List<Long> sleeps = new ArrayList<>();

        @Override
        public synchronized long nanoTime() {
            return nanos;
        }

        @Override
        public synchronized void sleepMs(long ms) {
            sleeps.add(ms);
            nanos += ms * 1_000_000L;
        }

        synchronized void advanceMs(long ms) {
            nanos += ms * 1_000_000L;
        }
    }
}

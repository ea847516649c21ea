package org.elastras.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.elastras.catalog.key.KeyRange;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.meta.MetaRow;
import org.elastras.catalog.meta.PartitionState;
import org.elastras.catalog.partition.PartitionDescriptor;
import org.elastras.catalog.partition.PartitionId;
import org.elastras.catalog.schema.Names;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.GetRequest;
import org.elastras.client.protocol.GetResponse;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.ScanRequest;
import org.elastras.client.protocol.ScanResponse;
import org.elastras.client.protocol.WireValues;

/**
 * The rows of the catalog databases ({@link CatalogSchemas}) as the protocol carries them, and
 * the reads of them: shared by the client's catalog reader and the master, which writes them.
 * Stateless.
 */
public final class CatalogRows {

    /** Rows one catalog scan request asks for; a longer scan continues. */
    public static final int SCAN_PAGE_ROWS = 1_000;
    /** Most rows one catalog partition scan returns in all (a bound on a reader's memory). */
    public static final int SCAN_ROWS_MAX = 1_000_000;

    private static final TableSchema PARTITIONS_TABLE = CatalogSchemas.meta().table(CatalogSchemas.PARTITIONS);

    private CatalogRows() {
    }

    /** One PARTITIONS row as decoded: the catalog row and the master's own fields. */
    public record PartitionRow(MetaRow row, String record, String writer) {
    }

    /** The wire row of a PARTITIONS row. */
    public static Map<String, Object> toWire(MetaRow row, String recordJson, String writer) {
        PartitionDescriptor p = row.partition();
        Map<String, Object> out = new HashMap<>();
        out.put(CatalogSchemas.DATABASE, p.database());
        out.put(CatalogSchemas.START_KEY, p.range().start());
        out.put(CatalogSchemas.PARTITION_ID, p.id().value());
        out.put(CatalogSchemas.END_KEY, p.range().end());
        out.put(CatalogSchemas.OWNER, row.owner());
        out.put(CatalogSchemas.STATE, row.state().code());
        out.put(CatalogSchemas.EPOCH, p.epoch());
        out.put(CatalogSchemas.RECORD, recordJson);
        out.put(CatalogSchemas.WRITER, writer);
        return out;
    }

    /** The primary key (wire values) of {@code row}'s PARTITIONS row. */
    public static List<Object> keyOf(MetaRow row) {
        PartitionDescriptor p = row.partition();
        return List.of(p.database(), p.range().start(), p.id().value());
    }

    /**
     * Decodes a PARTITIONS row.
     *
     * @throws IllegalArgumentException if a column is missing, mistyped or out of range
     */
    public static PartitionRow fromWire(Map<String, Object> wire) {
        String what = "catalog table " + CatalogSchemas.PARTITIONS;
        String database = (String) column(what, wire, CatalogSchemas.DATABASE);
        byte[] start = (byte[]) column(what, wire, CatalogSchemas.START_KEY);
        long id = (Long) column(what, wire, CatalogSchemas.PARTITION_ID);
        byte[] end = (byte[]) column(what, wire, CatalogSchemas.END_KEY);
        String owner = (String) column(what, wire, CatalogSchemas.OWNER);
        int state = (Integer) column(what, wire, CatalogSchemas.STATE);
        long epoch = (Long) column(what, wire, CatalogSchemas.EPOCH);
        PartitionDescriptor partition = new PartitionDescriptor(database, new PartitionId(id), new KeyRange(start, end), epoch);
        MetaRow row = new MetaRow(partition, owner, PartitionState.fromCode(state));
        return new PartitionRow(row, (String) column(what, wire, CatalogSchemas.RECORD),
                (String) column(what, wire, CatalogSchemas.WRITER));
    }

    private static Object column(String what, Map<String, Object> wire, String name) {
        return WireValues.toColumnValue(what, PARTITIONS_TABLE.column(name), wire.get(name));
    }

    /**
     * Reads, in one read-only transaction on catalog partition {@code partitionId} of
     * {@code catalogDatabase} (ROOT or META), the PARTITIONS rows of {@code database}, or every row
     * if it is null; in key order.
     *
     * @throws ElasTrasException as the OTM answers (NOT_OWNER and NOT_SERVING are retryable)
     * @throws IllegalStateException if the partition holds more than {@link #SCAN_ROWS_MAX} such rows
     */
    public static List<PartitionRow> scan(OtmClient otm, String catalogDatabase, long partitionId, String database) {
        return scan(otm, catalogDatabase, partitionId, database, 0);
    }

    /**
     * {@link #scan(OtmClient, String, long, String)} at a snapshot at or after {@code afterCts}
     * (the owner waits, bounded, for its snapshot to reach it; OVERLOADED if it does not).
     */
    public static List<PartitionRow> scan(OtmClient otm, String catalogDatabase, long partitionId, String database,
            long afterCts) {
        return readOnly(otm, catalogDatabase, partitionId, afterCts, txnId -> scanIn(otm, txnId, database));
    }

    /**
     * The PARTITIONS rows of {@code database} (every row if null), in key order, read inside the
     * open transaction {@code txnId} (on a ROOT or META partition).
     *
     * @throws IllegalStateException if there are more than {@link #SCAN_ROWS_MAX}
     */
    public static List<PartitionRow> scanIn(OtmClient otm, long txnId, String database) {
        List<Object> prefix = database == null ? null : List.of(Names.canonical(database));
        List<PartitionRow> out = new ArrayList<>();
        List<Object> from = prefix;
        boolean skipFirst = false;
        while (true) {
            ScanResponse page = otm.scan(new ScanRequest(txnId, CatalogSchemas.PARTITIONS, from, prefix, SCAN_PAGE_ROWS));
            List<Map<String, Object>> rows = page.rows();
            for (int i = skipFirst ? 1 : 0; i < rows.size(); i++) {
                out.add(fromWire(rows.get(i)));
            }
            if (out.size() > SCAN_ROWS_MAX) {
                throw new IllegalStateException("a catalog partition holds more than " + SCAN_ROWS_MAX + " rows"
                        + (database == null ? "" : " of " + database));
            }
            if (!page.more() || rows.isEmpty()) {
                return out;
            }
            from = keyOf(out.get(out.size() - 1).row());
            skipFirst = true;
        }
    }

    /**
     * The schema JSON of {@code database} from the ROOT partition (on {@code rootOwner}), if the
     * database exists.
     */
    public static Optional<String> schemaJson(OtmClient rootOwner, String database) {
        return schemaJson(rootOwner, database, 0);
    }

    /** {@link #schemaJson(OtmClient, String)} at a snapshot at or after {@code afterCts}. */
    public static Optional<String> schemaJson(OtmClient rootOwner, String database, long afterCts) {
        return readOnly(rootOwner, CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, afterCts, txnId -> {
            GetResponse got = rootOwner.get(new GetRequest(txnId, CatalogSchemas.DATABASES,
                    List.of(Names.canonical(database))));
            return got.found() ? Optional.of((String) got.row().get(CatalogSchemas.SCHEMA)) : Optional.empty();
        });
    }

    /** Every database's schema JSON in the ROOT partition (on {@code rootOwner}), by canonical name. */
    public static Map<String, String> schemaJsons(OtmClient rootOwner) {
        return schemaJsons(rootOwner, 0);
    }

    /** {@link #schemaJsons(OtmClient)} at a snapshot at or after {@code afterCts}. */
    public static Map<String, String> schemaJsons(OtmClient rootOwner, long afterCts) {
        return readOnly(rootOwner, CatalogSchemas.ROOT_DATABASE, CatalogSchemas.ROOT_PARTITION_ID, afterCts,
                txnId -> schemaJsonsIn(rootOwner, txnId));
    }

    /**
     * Every database's schema JSON in the ROOT partition, by canonical name, read inside transaction
     * {@code txnId} on {@code rootOwner} (paged).
     *
     * @throws IllegalStateException if ROOT holds more than {@link #SCAN_ROWS_MAX} databases
     */
    public static Map<String, String> schemaJsonsIn(OtmClient rootOwner, long txnId) {
        Map<String, String> out = new HashMap<>();
        List<Object> from = null;
        while (true) {
            ScanResponse page = rootOwner.scan(new ScanRequest(txnId, CatalogSchemas.DATABASES, from, null,
                    SCAN_PAGE_ROWS));
            for (Map<String, Object> row : page.rows()) {
                out.put(Names.canonical((String) row.get(CatalogSchemas.NAME)), (String) row.get(CatalogSchemas.SCHEMA));
            }
            if (!page.more() || page.rows().isEmpty()) {
                return out;
            }
            if (out.size() > SCAN_ROWS_MAX) {
                throw new IllegalStateException("the ROOT partition holds more than " + SCAN_ROWS_MAX + " databases");
            }
            // The last row is read again and put again: the map does not mind.
            from = List.of(page.rows().get(page.rows().size() - 1).get(CatalogSchemas.NAME));
        }
    }

    /** A body run in a transaction; its id is given. */
    @FunctionalInterface
    public interface InTransaction<T> {
        T run(long txnId);
    }

    /**
     * Runs {@code body} in a SNAPSHOT transaction on the partition and commits it (read-only: nothing
     * is logged); aborts it if the body fails. It reads at the owner's snapshot, which may trail the
     * newest catalog commits: see {@link #readOnly(OtmClient, String, long, long, InTransaction)}.
     */
    public static <T> T readOnly(OtmClient otm, String catalogDatabase, long partitionId, InTransaction<T> body) {
        return readOnly(otm, catalogDatabase, partitionId, 0, body);
    }

    /**
     * {@link #readOnly(OtmClient, String, long, InTransaction)} at a snapshot at or after
     * {@code afterCts} (sent as the begin's {@code afterCts}: the owner waits, bounded, until its
     * snapshot reaches it, else answers OVERLOADED), so that it sees every catalog write that
     * committed at or before {@code afterCts}; 0 reads at whatever snapshot the owner has.
     */
    public static <T> T readOnly(OtmClient otm, String catalogDatabase, long partitionId, long afterCts,
            InTransaction<T> body) {
        long txnId = otm.begin(new BeginRequest(catalogDatabase, partitionId, Isolation.SNAPSHOT, afterCts, null)).txnId();
        T result;
        try {
            result = body.run(txnId);
        } catch (RuntimeException e) {
            try {
                otm.abort(new AbortRequest(txnId));
            } catch (RuntimeException ignored) {
                e.addSuppressed(ignored);
            }
            throw e;
        }
        otm.commit(new CommitRequest(txnId));
        return result;
    }
}

package org.elastras.otm.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.CallRequest;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.WireValues;
import org.elastras.otm.txn.Procedure;
import org.elastras.otm.txn.ProcedureAbort;
import org.elastras.otm.txn.RowTransaction;

/**
 * The stored procedure {@value #NAME} of the catalog databases (ROOT and META): a compare-and-set
 * of one PARTITIONS row. The master records a partition's new owner and epoch with it in one
 * request, instead of an interactive transaction's begin, get, put and commit: the row is written
 * only if it still holds one of the (epoch, writer) versions the master names, so a deposed
 * master's late write still changes nothing. Reading and writing the same key in one transaction
 * makes the check and the write atomic (a concurrent writer of the row conflicts, and the OTM
 * re-runs the procedure on a newer snapshot, where the check sees that writer's version).
 *
 * <p>Arguments ({@link #args}): the acceptable epochs, the acceptable writers (the same length,
 * pairwise), and the new row's values in the PARTITIONS table's column order. Result
 * ({@link Outcome}): {@code [SWAPPED]}, {@code [MISSING]} (no such row: nothing written) or
 * {@code [SUPERSEDED, epoch, writer]} (the row holds another version, named; nothing written).
 *
 * <p>Immutable; runs on many threads at once, each with its own transaction.
 */
public final class PartitionRowSwap implements Procedure {

    /** The procedure's registered name. */
    public static final String NAME = "swapPartitionRow";
    /** Most acceptable versions one call may name (each is two arguments' worth on the wire). */
    public static final int VERSIONS_MAX = 64;

    /** What a swap did. */
    public enum Outcome {
        /** The row held an acceptable version and now holds the new row. */
        SWAPPED,
        /** There is no row with the new row's key; nothing was written. */
        MISSING,
        /** The row holds a version not named as acceptable; nothing was written. */
        SUPERSEDED
    }

    /** An acceptable version of the row: what the compare compares. */
    public record Version(long epoch, String writer) {
    }

    /** The answer of one swap: the outcome and, when SUPERSEDED, the version the row holds. */
    public record Result(Outcome outcome, Version found) {
        public Result {
            Objects.requireNonNull(outcome, "outcome");
            if ((outcome == Outcome.SUPERSEDED) != (found != null)) {
                throw new IllegalArgumentException("a SUPERSEDED result names the version found, and only it does");
            }
        }

        /** Reads the result as the procedure returned it, after its trip over the wire. */
        public static Result fromWire(Object wire) {
            if (!(wire instanceof List<?> list) || list.isEmpty() || !(list.get(0) instanceof String name)) {
                throw new IllegalArgumentException(NAME + " answered " + wire + "; expected [outcome, ...]");
            }
            Outcome outcome = Outcome.valueOf(name);
            if (outcome != Outcome.SUPERSEDED) {
                return new Result(outcome, null);
            }
            if (list.size() != 3 || !(list.get(1) instanceof Number epoch)) {
                throw new IllegalArgumentException(NAME + " answered " + wire + "; expected [SUPERSEDED, epoch, writer]");
            }
            return new Result(outcome, new Version(epoch.longValue(), (String) list.get(2)));
        }

        List<Object> toWire() {
            List<Object> out = new ArrayList<>(3);
            out.add(outcome.name());
            if (found != null) {
                out.add(found.epoch());
                out.add(found.writer());
            }
            return out;
        }
    }

    private static final TableSchema PARTITIONS = CatalogSchemas.meta().table(CatalogSchemas.PARTITIONS);
    private static final int EPOCH_INDEX = PARTITIONS.columnIndex(CatalogSchemas.EPOCH);
    private static final int WRITER_INDEX = PARTITIONS.columnIndex(CatalogSchemas.WRITER);

    /** The call of this procedure on catalog partition {@code partitionId} of {@code database}, with {@link #args}. */
    public static CallRequest request(String database, long partitionId, List<Object> args) {
        return new CallRequest(database, partitionId, NAME, args, Isolation.SERIALIZABLE, 0);
    }

    /**
     * The call's arguments.
     *
     * @param acceptable the versions the row may hold for the write to happen (1 to {@link #VERSIONS_MAX})
     * @param row the new row's wire values in the PARTITIONS table's column order
     */
    public static List<Object> args(List<Version> acceptable, List<Object> row) {
        if (acceptable.isEmpty() || acceptable.size() > VERSIONS_MAX) {
            throw new IllegalArgumentException("a swap names 1 to " + VERSIONS_MAX + " acceptable versions, not "
                    + acceptable.size());
        }
        if (row.size() != PARTITIONS.columns().size()) {
            throw new IllegalArgumentException("a PARTITIONS row has " + PARTITIONS.columns().size() + " values, not "
                    + row.size());
        }
        List<Object> epochs = new ArrayList<>(acceptable.size());
        List<Object> writers = new ArrayList<>(acceptable.size());
        for (Version v : acceptable) {
            epochs.add(v.epoch());
            writers.add(v.writer());
        }
        List<Object> args = new ArrayList<>(3);
        args.add(epochs);
        args.add(writers);
        args.add(new ArrayList<>(row));
        return args;
    }

    @Override
    public Object run(RowTransaction txn, List<Object> args) {
        if (args.size() != 3 || !(args.get(0) instanceof List<?> epochs) || !(args.get(1) instanceof List<?> writers)
                || !(args.get(2) instanceof List<?> wireRow) || epochs.size() != writers.size() || epochs.isEmpty()
                || epochs.size() > VERSIONS_MAX) {
            throw new ProcedureAbort(NAME + " takes [epochs], [writers] (1 to " + VERSIONS_MAX
                    + " versions, pairwise) and [row]; got " + args.size() + " arguments");
        }
        List<Object> row = typed(wireRow);
        List<Object> key = new ArrayList<>();
        for (String name : PARTITIONS.primaryKey()) {
            key.add(row.get(PARTITIONS.columnIndex(name)));
        }
        List<Object> current = txn.get(CatalogSchemas.PARTITIONS, key);
        if (current == null) {
            return new Result(Outcome.MISSING, null).toWire();
        }
        Version found = new Version((Long) current.get(EPOCH_INDEX), (String) current.get(WRITER_INDEX));
        for (int i = 0; i < epochs.size(); i++) {
            Object epoch = epochs.get(i);
            if (epoch instanceof Number n && n.longValue() == found.epoch() && Objects.equals(writers.get(i), found.writer())) {
                txn.put(CatalogSchemas.PARTITIONS, row);
                return new Result(Outcome.SWAPPED, null).toWire();
            }
        }
        return new Result(Outcome.SUPERSEDED, found).toWire();
    }

    /** The row's wire values as the columns' values. */
    private static List<Object> typed(List<?> wireRow) {
        List<Column> columns = PARTITIONS.columns();
        if (wireRow.size() != columns.size()) {
            throw new ProcedureAbort(NAME + ": a PARTITIONS row has " + columns.size() + " values, got " + wireRow.size());
        }
        List<Object> row = new ArrayList<>(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            try {
                row.add(WireValues.toColumnValue("catalog table " + CatalogSchemas.PARTITIONS, columns.get(i), wireRow.get(i)));
            } catch (IllegalArgumentException e) {
                throw new ProcedureAbort(NAME + ": " + e.getMessage());
            }
        }
        return row;
    }
}

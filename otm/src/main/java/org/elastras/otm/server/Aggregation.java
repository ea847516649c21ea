package org.elastras.otm.server;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.AggregateRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.WireValues;

/**
 * The conditions and aggregates of one {@link AggregateRequest} over one table, resolved against
 * its schema, fed row by row. Not thread-safe: one request's thread.
 */
final class Aggregation {

    private record Condition(int column, String op, Comparable<Object> value) {
    }

    private final List<Condition> where = new ArrayList<>();
    private final List<AggregateRequest.Aggregate> select;
    private final int[] selectColumns;
    private final Object[] values;
    private final long[] counts;

    /** @throws ElasTrasException UNKNOWN_TABLE-like TYPE_MISMATCH for unknown columns or values of the wrong type */
    @SuppressWarnings("unchecked")
    Aggregation(TableSchema table, List<AggregateRequest.Condition> conditions, List<AggregateRequest.Aggregate> aggregates) {
        for (AggregateRequest.Condition c : conditions) {
            int index = columnIndex(table, c.column());
            Column column = table.columns().get(index);
            Object value;
            try {
                value = WireValues.toColumnValue("table " + table.name(), column, c.value());
            } catch (IllegalArgumentException e) {
                throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, e.getMessage());
            }
            if (!(value instanceof Comparable<?>)) {
                throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "column " + c.column() + " of table " + table.name()
                        + " cannot be compared with " + c.value());
            }
            where.add(new Condition(index, c.op(), (Comparable<Object>) value));
        }
        this.select = aggregates;
        this.selectColumns = new int[aggregates.size()];
        for (int i = 0; i < aggregates.size(); i++) {
            AggregateRequest.Aggregate a = aggregates.get(i);
            selectColumns[i] = a.column() == null ? -1 : columnIndex(table, a.column());
            if (a.function().equals("SUM") && !isNumeric(table.columns().get(selectColumns[i]))) {
                throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "SUM needs a numeric column; " + a.column()
                        + " of table " + table.name() + " is " + table.columns().get(selectColumns[i]).type());
            }
        }
        this.values = new Object[aggregates.size()];
        this.counts = new long[aggregates.size()];
    }

    private static int columnIndex(TableSchema table, String name) {
        int index = table.columnIndex(name);
        if (index < 0) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "table " + table.name() + " has no column " + name);
        }
        return index;
    }

    private static boolean isNumeric(Column column) {
        String type = column.type().toString().toUpperCase(java.util.Locale.ROOT);
        return type.startsWith("INT") || type.startsWith("BIGINT") || type.startsWith("SMALLINT")
                || type.startsWith("DECIMAL") || type.startsWith("DOUBLE") || type.startsWith("REAL");
    }

    /** Feeds one row (values in column order). */
    @SuppressWarnings("unchecked")
    void accept(List<Object> row) {
        for (Condition c : where) {
            Object v = row.get(c.column());
            if (v == null || !holds(c.op(), c.value().compareTo(v))) {
                return;
            }
        }
        for (int i = 0; i < select.size(); i++) {
            Object v = selectColumns[i] < 0 ? Boolean.TRUE : row.get(selectColumns[i]);
            if (v == null) {
                continue;
            }
            counts[i]++;
            switch (select.get(i).function()) {
                case "SUM" -> values[i] = values[i] == null ? decimal(v) : ((BigDecimal) values[i]).add(decimal(v));
                case "MIN" -> values[i] = values[i] == null || ((Comparable<Object>) v).compareTo(values[i]) < 0 ? v : values[i];
                case "MAX" -> values[i] = values[i] == null || ((Comparable<Object>) v).compareTo(values[i]) > 0 ? v : values[i];
                default -> { }
            }
        }
    }

    /** Whether "row value OP condition value" holds, given conditionValue.compareTo(rowValue). */
    private static boolean holds(String op, int conditionVsRow) {
        return switch (op) {
            case "=" -> conditionVsRow == 0;
            case "!=" -> conditionVsRow != 0;
            case "<" -> conditionVsRow > 0;
            case "<=" -> conditionVsRow >= 0;
            case ">" -> conditionVsRow < 0;
            case ">=" -> conditionVsRow <= 0;
            default -> throw new IllegalArgumentException("unknown operator " + op);
        };
    }

    private static BigDecimal decimal(Object v) {
        return v instanceof BigDecimal d ? d : new BigDecimal(v.toString());
    }

    /** The aggregates so far, one per {@code select} term: COUNT a Long, SUM a BigDecimal or null, MIN/MAX a value or null. */
    List<Object> result() {
        List<Object> out = new ArrayList<>(select.size());
        for (int i = 0; i < select.size(); i++) {
            out.add(select.get(i).function().equals("COUNT") ? Long.valueOf(counts[i]) : values[i]);
        }
        return out;
    }
}

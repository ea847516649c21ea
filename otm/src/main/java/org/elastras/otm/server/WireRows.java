package org.elastras.otm.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.WireValues;
import org.elastras.otm.txn.RowTransaction;
import org.elastras.otm.txn.TransactionException;

/**
 * Rows and keys between the wire (maps of column name to value, values as the protocol carries
 * them) and the typed lists transactions use (values of each column's Java type, in column
 * order). Stateless.
 */
final class WireRows {

    private WireRows() {
    }

    static List<Object> keyValues(TableSchema table, List<Object> key) {
        List<Column> columns = table.keyColumns();
        if (key == null || key.size() != columns.size()) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "table " + table.name() + " has a key of "
                    + columns.size() + " values " + table.primaryKey() + ", got " + (key == null ? 0 : key.size()));
        }
        return convert(table, columns, key);
    }

    static List<Object> prefixValues(TableSchema table, List<Object> prefix) {
        if (prefix == null || prefix.isEmpty()) {
            return List.of();
        }
        List<Column> columns = table.keyColumns();
        if (prefix.size() > columns.size()) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "table " + table.name() + " has a key of "
                    + columns.size() + " values " + table.primaryKey() + ", got a prefix of " + prefix.size());
        }
        return convert(table, columns.subList(0, prefix.size()), prefix);
    }

    static List<Object> convert(TableSchema table, List<Column> columns, List<Object> values) {
        List<Object> out = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            out.add(value(table, columns.get(i), values.get(i)));
        }
        return out;
    }

    static List<Object> rowValues(TableSchema table, Map<String, Object> row) {
        List<Column> columns = table.columns();
        Object[] values = new Object[columns.size()];
        for (Map.Entry<String, Object> e : row.entrySet()) {
            int index = columnIndex(table, e.getKey());
            values[index] = value(table, columns.get(index), e.getValue());
        }
        return java.util.Arrays.asList(values);
    }

    /** The column named {@code name} (ignoring case); TYPE_MISMATCH naming the table's columns if it has none. */
    static Column column(TableSchema table, String name) {
        return table.columns().get(columnIndex(table, name));
    }

    /** The columns named, in that order, as {@link #column} finds each. */
    static List<Column> columns(TableSchema table, List<String> names) {
        List<Column> out = new ArrayList<>(names.size());
        for (String name : names) {
            out.add(column(table, name));
        }
        return out;
    }

    /**
     * An add's amount as the Java value of its column: an add works on INT, BIGINT and DECIMAL
     * columns, and its amount is converted as a value put there would be. A Smile body carries an
     * integer as the smallest of {@code Integer}, {@code Long}, {@code BigInteger} that holds it and
     * a DECIMAL as a {@code BigDecimal}; a JSON body a DECIMAL as a {@code Double} or a numeric
     * string; {@link WireValues} widens each of them losslessly or refuses it.
     *
     * @throws TransactionException TYPE_MISMATCH if the column is of another type or in the key
     *     ({@link RowTransaction#requireAddable})
     * @throws ElasTrasException TYPE_MISMATCH if the amount does not fit the column
     */
    static Number amount(TableSchema table, Column column, Object amount) {
        RowTransaction.requireAddable(table, column);
        return (Number) value(table, column, amount);
    }

    static Map<String, Object> rowMap(TableSchema table, List<Object> row) {
        return rowMap(table.columns(), row);
    }

    /** Values of {@code columns} (in that order) as a wire row. */
    static Map<String, Object> rowMap(List<Column> columns, List<Object> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            out.put(columns.get(i).name(), values.get(i));
        }
        return out;
    }

    private static int columnIndex(TableSchema table, String name) {
        int index = table.columnIndex(name);
        if (index < 0) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "table " + table.name() + " has no column "
                    + name + "; its columns are " + table.columns().stream().map(Column::name).toList());
        }
        return index;
    }

    private static Object value(TableSchema table, Column column, Object wireValue) {
        try {
            return WireValues.toColumnValue("table " + table.name(), column, wireValue);
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, e.getMessage());
        }
    }
}

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
        try {
            for (int i = 0; i < values.size(); i++) {
                out.add(WireValues.toColumnValue("table " + table.name(), columns.get(i), values.get(i)));
            }
        } catch (IllegalArgumentException e) {
            throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, e.getMessage());
        }
        return out;
    }

    static List<Object> rowValues(TableSchema table, Map<String, Object> row) {
        List<Column> columns = table.columns();
        Object[] values = new Object[columns.size()];
        for (Map.Entry<String, Object> e : row.entrySet()) {
            int index = table.columnIndex(e.getKey());
            if (index < 0) {
                throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, "table " + table.name() + " has no column "
                        + e.getKey() + "; its columns are " + columns.stream().map(Column::name).toList());
            }
            try {
                values[index] = WireValues.toColumnValue("table " + table.name(), columns.get(index), e.getValue());
            } catch (IllegalArgumentException ex) {
                throw new ElasTrasException(ErrorCode.TYPE_MISMATCH, ex.getMessage());
            }
        }
        return java.util.Arrays.asList(values);
    }

    static Map<String, Object> rowMap(TableSchema table, List<Object> row) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < table.columns().size(); i++) {
            out.put(table.columns().get(i).name(), row.get(i));
        }
        return out;
    }
}

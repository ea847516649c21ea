package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import org.elastras.catalog.schema.Column;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.TableSchema;
import org.elastras.catalog.schema.TypeKind;

/**
 * Rows of {@link TpccSchema} over JDBC, for the SQL baselines (Derby, PostgreSQL): the INSERT of a
 * whole row, binding and reading values by column type, and the single-row access that tests and
 * tools use. TIMESTAMP columns hold microseconds since the epoch in rows and {@link Timestamp}s in
 * SQL. Pure functions over the connection they are given; the caller owns its transaction.
 */
final class SqlRows {

    private SqlRows() {
    }

    /** {@code INSERT INTO t (c1, ...) VALUES (?, ...)} over every column of {@code schema}, in column order. */
    static String insertSql(TableSchema schema) {
        StringBuilder b = new StringBuilder("INSERT INTO ").append(schema.name()).append(" (");
        StringBuilder marks = new StringBuilder();
        for (Column col : schema.columns()) {
            b.append(marks.length() == 0 ? "" : ", ").append(col.name());
            marks.append(marks.length() == 0 ? "?" : ", ?");
        }
        return b.append(") VALUES (").append(marks).append(')').toString();
    }

    /** Binds a whole row (column order) to parameters {@code firstIndex..}. */
    static void bindRow(PreparedStatement p, TableSchema schema, List<Object> row, int firstIndex) throws SQLException {
        for (int i = 0; i < schema.columns().size(); i++) {
            bind(p, firstIndex + i, schema.columns().get(i).type(), row.get(i));
        }
    }

    static void bind(PreparedStatement p, int index, ColumnType type, Object value) throws SQLException {
        TypeKind kind = type.kind();
        if (value == null) {
            p.setNull(index, switch (kind) {
                case INT -> Types.INTEGER;
                case BIGINT -> Types.BIGINT;
                case TIMESTAMP -> Types.TIMESTAMP;
                case DECIMAL -> Types.DECIMAL;
                default -> Types.VARCHAR;
            });
            return;
        }
        switch (kind) {
            case INT -> p.setInt(index, ((Number) value).intValue());
            case BIGINT -> p.setLong(index, ((Number) value).longValue());
            case TIMESTAMP -> p.setTimestamp(index, timestamp(((Number) value).longValue()));
            case DECIMAL -> p.setBigDecimal(index, (BigDecimal) value);
            case VARCHAR -> p.setString(index, (String) value);
            default -> throw new IllegalStateException("TPC-C uses no " + type);
        }
    }

    static Timestamp timestamp(long micros) {
        Timestamp t = new Timestamp(Math.floorDiv(micros, 1_000_000L) * 1_000L);
        t.setNanos((int) Math.floorMod(micros, 1_000_000L) * 1_000);
        return t;
    }

    static long micros(Timestamp t) {
        return Math.floorDiv(t.getTime(), 1_000L) * 1_000_000L + t.getNanos() / 1_000;
    }

    static Object read(ResultSet r, int index, ColumnType type) throws SQLException {
        Object v = switch (type.kind()) {
            case INT -> r.getInt(index);
            case BIGINT -> r.getLong(index);
            case TIMESTAMP -> {
                Timestamp t = r.getTimestamp(index);
                yield t == null ? null : micros(t);
            }
            case DECIMAL -> r.getBigDecimal(index);
            case VARCHAR -> r.getString(index);
            default -> throw new IllegalStateException("TPC-C uses no " + type);
        };
        return r.wasNull() ? null : v;
    }

    /** The row of {@code table} with this primary key, in column order; null if none. */
    static List<Object> readRow(Connection c, String table, List<Object> key) throws SQLException {
        TableSchema schema = TpccSchema.table(table);
        StringBuilder sql = new StringBuilder("SELECT * FROM ").append(table).append(" WHERE ");
        List<Column> keyColumns = schema.keyColumns();
        for (int i = 0; i < keyColumns.size(); i++) {
            sql.append(i == 0 ? "" : " AND ").append(keyColumns.get(i).name()).append(" = ?");
        }
        try (PreparedStatement p = c.prepareStatement(sql.toString())) {
            for (int i = 0; i < keyColumns.size(); i++) {
                bind(p, i + 1, keyColumns.get(i).type(), key.get(i));
            }
            try (ResultSet r = p.executeQuery()) {
                if (!r.next()) {
                    return null;
                }
                List<Object> row = new ArrayList<>();
                for (int i = 0; i < schema.columns().size(); i++) {
                    row.add(read(r, i + 1, schema.columns().get(i).type()));
                }
                return row;
            }
        }
    }

    /**
     * Replaces (or inserts) a whole row: delete by key, then insert. Index tables are skipped: the
     * SQL baselines keep real indexes instead.
     */
    static void writeRow(Connection c, String table, List<Object> row) throws SQLException {
        if (TpccSchema.INDEX_TABLES.contains(table)) {
            return;
        }
        TableSchema schema = TpccSchema.table(table);
        StringBuilder delete = new StringBuilder("DELETE FROM ").append(table).append(" WHERE ");
        int[] keyIndexes = schema.keyColumnIndexes();
        for (int i = 0; i < keyIndexes.length; i++) {
            delete.append(i == 0 ? "" : " AND ").append(schema.columns().get(keyIndexes[i]).name()).append(" = ?");
        }
        try (PreparedStatement d = c.prepareStatement(delete.toString()); PreparedStatement i = c.prepareStatement(insertSql(schema))) {
            for (int k = 0; k < keyIndexes.length; k++) {
                bind(d, k + 1, schema.columns().get(keyIndexes[k]).type(), row.get(keyIndexes[k]));
            }
            d.executeUpdate();
            bindRow(i, schema, row, 1);
            i.executeUpdate();
        }
    }

    /** Rows of {@code table} whose key starts with (w, d). */
    static long countRows(Connection c, String table, int warehouseId, int districtId) throws SQLException {
        TableSchema schema = TpccSchema.table(table);
        String sql = "SELECT COUNT(*) FROM " + table + " WHERE W_ID = ? AND " + schema.keyColumns().get(1).name() + " = ?";
        try (PreparedStatement p = c.prepareStatement(sql)) {
            p.setInt(1, warehouseId);
            p.setInt(2, districtId);
            try (ResultSet r = p.executeQuery()) {
                r.next();
                return r.getLong(1);
            }
        }
    }
}

package org.elastras.experiments.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.elastras.catalog.schema.TableSchema;

/**
 * What the SQL targets (Derby, PostgreSQL) share: single-row reads, writes and counts for the
 * loader and the tests, and the consistency checker's queries, each in its own short transaction
 * on a connection the target opens at the isolation level asked.
 */
abstract class JdbcTpccTarget implements TpccTarget {

    /** A new connection at {@code isolation}, auto-commit off. */
    abstract Connection connect(int isolation) throws SQLException;

    /**
     * A loader's batch writer on {@code c} (auto-commit off, owned by the writer): batched inserts
     * per table, a commit per batch; the index tables ElasTraS keeps are skipped (SQL has indexes).
     */
    static TpccLoader.BatchWriter batchWriter(Connection c) {
        Map<String, PreparedStatement> inserts = new HashMap<>();
        return new TpccLoader.BatchWriter() {
            @Override
            public void write(String table, List<List<Object>> rows) throws SQLException {
                if (TpccSchema.INDEX_TABLES.contains(table)) {
                    return;
                }
                TableSchema schema = TpccSchema.table(table);
                PreparedStatement insert = inserts.get(table);
                if (insert == null) {
                    insert = c.prepareStatement(SqlRows.insertSql(schema));
                    inserts.put(table, insert);
                }
                for (List<Object> row : rows) {
                    SqlRows.bindRow(insert, schema, row, 1);
                    insert.addBatch();
                }
                insert.executeBatch();
                c.commit();
            }

            @Override
            public void close() throws SQLException {
                for (PreparedStatement p : inserts.values()) {
                    p.close();
                }
                c.rollback();
                c.close();
            }
        };
    }

    @Override
    public List<Object> readRow(String table, List<Object> key) throws SQLException {
        try (Connection c = connect(Connection.TRANSACTION_READ_COMMITTED)) {
            List<Object> row = SqlRows.readRow(c, table, key);
            c.commit();
            return row;
        }
    }

    @Override
    public void writeRow(String table, List<Object> row) throws SQLException {
        try (Connection c = connect(Connection.TRANSACTION_SERIALIZABLE)) {
            SqlRows.writeRow(c, table, row);
            c.commit();
        }
    }

    @Override
    public long countRows(String table, int warehouseId, int districtId) throws SQLException {
        try (Connection c = connect(Connection.TRANSACTION_READ_COMMITTED)) {
            long n = SqlRows.countRows(c, table, warehouseId, districtId);
            c.commit();
            return n;
        }
    }

    /** The consistency conditions' SQL ({@link SqlConsistencyQueries}) in one transaction at {@code isolation}. */
    List<ConsistencyViolation> checkConsistencyAt(int isolation, boolean afterLoad, int loadedDeliveredOrders)
            throws SQLException {
        try (Connection c = connect(isolation)) {
            List<ConsistencyViolation> v = new SqlConsistencyQueries(c).check(afterLoad, loadedDeliveredOrders);
            c.commit();
            return v;
        }
    }
}

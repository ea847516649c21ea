package org.elastras.experiments.tpcc;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The baseline: TPC-C on embedded Apache Derby through JDBC, one connection per terminal,
 * autocommit off, Derby's default durability (the log is synced before {@code commit()} returns).
 * New-Order, Payment, Delivery and Order-Status run SERIALIZABLE; Stock-Level READ COMMITTED,
 * which clause 3.4.1 allows for it. Deadlocks and lock timeouts (SQLState 40001, 40XL1, 40XL2)
 * roll back and run the transaction again, at most {@link #ATTEMPTS_MAX} times, as the OTM re-runs
 * a procedure. The logic is that of {@link TpccProcedures}, with the shared rules of
 * {@link TpccRules}; rows that are read and then written are read first with an UPDATE (or
 * SELECT ... FOR UPDATE) so that Derby takes the write lock at once instead of upgrading a shared
 * one, which would deadlock under contention.
 *
 * <p>Settings as in the procedure benchmark's Derby target: the page cache is sized by the caller,
 * deadlock detection after 1 s instead of 20 s. These are JVM-wide Derby properties, set before the
 * engine boots; several databases (directories) may be open in one JVM.
 *
 * <p>Thread-safe; sessions and batch writers are per thread.
 */
public final class DerbyTpccTarget extends JdbcTpccTarget {

    static final int ATTEMPTS_MAX = 16;
    static final int LOAD_BATCH_ROWS = 1_000;
    static final int DEADLOCK_CHECK_SECONDS = 1;
    static final int LOCK_WAIT_SECONDS = 10;

    private final String url;

    private DerbyTpccTarget(String url) {
        this.url = url;
    }

    /**
     * Creates an empty TPC-C database in {@code directory} (which must not exist yet).
     *
     * @param pageCachePages Derby's page cache in 4 KiB pages (JVM-wide; only the first call's value counts)
     */
    public static DerbyTpccTarget create(Path directory, int pageCachePages) throws SQLException {
        setProperties(directory, pageCachePages);
        String url = "jdbc:derby:directory:" + directory.toAbsolutePath();
        try (Connection c = DriverManager.getConnection(url + ";create=true"); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (String ddl : TpccSchema.sqlDdl()) {
                s.execute(ddl);
            }
            c.commit();
        }
        return new DerbyTpccTarget(url);
    }

    /** Opens a TPC-C database {@link #create} made (and {@link #close} shut down) earlier, e.g. a copy of one. */
    public static DerbyTpccTarget open(Path directory, int pageCachePages) throws SQLException {
        setProperties(directory, pageCachePages);
        String url = "jdbc:derby:directory:" + directory.toAbsolutePath();
        DriverManager.getConnection(url).close();
        return new DerbyTpccTarget(url);
    }

    private static void setProperties(Path directory, int pageCachePages) {
        System.setProperty("derby.stream.error.file", directory.toAbsolutePath().getParent().resolve("derby.log").toString());
        System.setProperty("derby.storage.pageCacheSize", Integer.toString(pageCachePages));
        System.setProperty("derby.locks.deadlockTimeout", Integer.toString(DEADLOCK_CHECK_SECONDS));
        System.setProperty("derby.locks.waitTimeout", Integer.toString(LOCK_WAIT_SECONDS));
    }

    @Override
    public String name() {
        return "derby";
    }

    @Override
    public String description() {
        return "Apache Derby embedded, JDBC, connection per terminal, autocommit off, SERIALIZABLE"
                + " (Stock-Level READ COMMITTED), log sync on commit";
    }

    @Override
    Connection connect(int isolation) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        c.setAutoCommit(false);
        c.setHoldability(ResultSet.CLOSE_CURSORS_AT_COMMIT);
        c.setTransactionIsolation(isolation);
        return c;
    }

    // ---- Loading and row access ----

    @Override
    public int loadBatchRowsMax() {
        return LOAD_BATCH_ROWS;
    }

    @Override
    public void loadItems(List<List<Object>> rows) throws Exception {
        try (TpccLoader.BatchWriter writer = openBatchWriter()) {
            for (int from = 0; from < rows.size(); from += LOAD_BATCH_ROWS) {
                writer.write(TpccSchema.ITEM, rows.subList(from, Math.min(rows.size(), from + LOAD_BATCH_ROWS)));
            }
        }
    }

    @Override
    public TpccLoader.BatchWriter openBatchWriter() throws SQLException {
        Connection c = connect(Connection.TRANSACTION_READ_COMMITTED);
        return batchWriter(c);
    }

    /** Refreshes the optimizer's statistics after a bulk load, as any Derby user would. */
    public void updateStatistics() throws SQLException {
        try (Connection c = connect(Connection.TRANSACTION_READ_COMMITTED); Statement s = c.createStatement()) {
            for (String table : TpccSchema.TABLES) {
                if (!TpccSchema.INDEX_TABLES.contains(table)) {
                    s.execute("CALL SYSCS_UTIL.SYSCS_UPDATE_STATISTICS('APP', '" + table + "', NULL)");
                }
            }
            c.commit();
        }
    }

    @Override
    public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders)
            throws SQLException {
        return checkConsistencyAt(Connection.TRANSACTION_SERIALIZABLE, afterLoad, loadedDeliveredOrders);
    }

    @Override
    public Session openSession() throws SQLException {
        // Derby waits for locks, so a deadlock victim retries at once.
        return new JdbcTpccSession(connect(Connection.TRANSACTION_SERIALIZABLE), Connection.TRANSACTION_SERIALIZABLE,
                new SqlRetry(DerbyTpccTarget::retryable, ATTEMPTS_MAX, 0));
    }

    /** Deadlock victim or lock wait timeout: the transaction was rolled back and may run again. */
    static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40XL1".equals(state) || "40XL2".equals(state);
    }

    /** Shuts this database down (the engine stays up for other databases); Derby reports success as 08006. */
    @Override
    public void close() {
        try {
            DriverManager.getConnection(url + ";shutdown=true").close();
        } catch (SQLException e) {
            if (!"08006".equals(e.getSQLState())) {
                System.err.println("Derby database " + url + " did not shut down cleanly: " + e);
            }
        }
    }
}

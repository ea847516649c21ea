package org.elastras.experiments.tpcc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

/**
 * The PostgreSQL baseline: TPC-C in one database of a {@link PostgresServer}, one connection per
 * terminal, {@code synchronous_commit} as the server has it (on in the benchmark). Two modes,
 * as issue 5 asks:
 * <ul>
 *   <li>{@link Mode#JDBC}: interactive, the statements of {@link JdbcTpccSession}, one round trip
 *       per statement (what an application with an ORM or plain JDBC does);</li>
 *   <li>{@link Mode#PLPGSQL}: each transaction one call of a PL/pgSQL function
 *       ({@code tpcc/postgres-functions.sql}), one round trip (the fair match for ElasTraS's stored
 *       procedures).</li>
 * </ul>
 * New-Order, Payment, Delivery and Order-Status run SERIALIZABLE (PostgreSQL's serializable
 * snapshot isolation) or REPEATABLE READ (snapshot isolation, which Fekete et al. showed
 * serializable for the TPC-C mix); Stock-Level READ COMMITTED. Serialization failures and deadlocks
 * (SQLState 40001, 40P01) roll back and run the transaction again after a short random pause,
 * bounded ({@link #RETRY}). Thread-safe; sessions and batch writers are per thread.
 */
public final class PostgresTpccTarget extends JdbcTpccTarget {

    /** How the transactions reach the server. */
    public enum Mode {
        JDBC, PLPGSQL
    }

    /** Serialization failures rise with contention (SSI also aborts on false positives of its page-level locks). */
    static final SqlRetry RETRY = new SqlRetry(PostgresTpccTarget::retryable, 32, 50);
    static final int LOAD_BATCH_ROWS = 1_000;
    /** SQLState of New-Order's requested rollback in the PL/pgSQL functions. */
    static final String ITEM_NOT_VALID_STATE = "TP001";
    private static final String FUNCTIONS = "/tpcc/postgres-functions.sql";

    private final PostgresServer server;
    private final String database;
    private final Mode mode;
    /** JDBC isolation of New-Order, Payment, Delivery and Order-Status. */
    private final int writersIsolation;

    private PostgresTpccTarget(PostgresServer server, String database, Mode mode, int writersIsolation) {
        this.server = server;
        this.database = database;
        this.mode = mode;
        this.writersIsolation = writersIsolation;
    }

    /**
     * Creates an empty TPC-C database {@code database} (tables, indexes, functions) on
     * {@code server}, which stays the caller's to close.
     *
     * @param writersIsolation {@link Connection#TRANSACTION_SERIALIZABLE} or {@link Connection#TRANSACTION_REPEATABLE_READ}
     */
    public static PostgresTpccTarget create(PostgresServer server, String database, Mode mode, int writersIsolation)
            throws SQLException, IOException {
        checkArguments(database, writersIsolation);
        try (Connection admin = DriverManager.getConnection(server.url("postgres")); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + database);
        }
        try (Connection c = DriverManager.getConnection(server.url(database)); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            for (String ddl : TpccSchema.sqlDdl()) {
                s.execute(ddl);
            }
            s.execute(functions());
            c.commit();
        }
        return new PostgresTpccTarget(server, database, mode, writersIsolation);
    }

    /**
     * A new database {@code database} copied from {@code template} (a loaded TPC-C database with no
     * open connection; PostgreSQL copies it at the file level).
     */
    public static PostgresTpccTarget copy(PostgresServer server, String template, String database, Mode mode,
            int writersIsolation) throws SQLException {
        checkArguments(database, writersIsolation);
        checkArguments(template, writersIsolation);
        try (Connection admin = DriverManager.getConnection(server.url("postgres")); Statement s = admin.createStatement()) {
            s.execute("CREATE DATABASE " + database + " TEMPLATE " + template);
        }
        return new PostgresTpccTarget(server, database, mode, writersIsolation);
    }

    private static void checkArguments(String database, int writersIsolation) {
        if (!database.matches("[a-z][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("a database name is [a-z][a-z0-9_]*, at most 63 characters, got " + database);
        }
        if (writersIsolation != Connection.TRANSACTION_SERIALIZABLE && writersIsolation != Connection.TRANSACTION_REPEATABLE_READ) {
            throw new IllegalArgumentException("the writers' isolation must be SERIALIZABLE or REPEATABLE READ, got " + writersIsolation);
        }
    }

    private static String functions() throws IOException {
        try (InputStream in = PostgresTpccTarget.class.getResourceAsStream(FUNCTIONS)) {
            if (in == null) {
                throw new IllegalStateException("resource " + FUNCTIONS + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Override
    public String name() {
        return "postgres-" + (mode == Mode.JDBC ? "jdbc" : "plpgsql") + (writersIsolation == Connection.TRANSACTION_SERIALIZABLE ? "" : "-si");
    }

    @Override
    public String description() {
        return "PostgreSQL " + (mode == Mode.JDBC ? "interactive JDBC (a round trip per statement)"
                : "PL/pgSQL functions (a round trip per transaction)") + ", connection per terminal over TCP on 127.0.0.1, "
                + (writersIsolation == Connection.TRANSACTION_SERIALIZABLE ? "SERIALIZABLE" : "REPEATABLE READ (snapshot isolation)")
                + " (Stock-Level READ COMMITTED), synchronous_commit=on";
    }

    /** A connection to this database with autocommit off at {@code isolation}. */
    @Override
    Connection connect(int isolation) throws SQLException {
        Connection c = DriverManager.getConnection(server.url(database));
        c.setAutoCommit(false);
        c.setTransactionIsolation(isolation);
        return c;
    }

    /** Refreshes the planner's statistics after a bulk load, as any PostgreSQL user would. */
    public void analyze() throws SQLException {
        try (Connection c = DriverManager.getConnection(server.url(database)); Statement s = c.createStatement()) {
            s.execute("VACUUM ANALYZE");
        }
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
        Connection c = DriverManager.getConnection(server.url(database) + "&reWriteBatchedInserts=true");
        c.setAutoCommit(false);
        return batchWriter(c);
    }

    /** The same SQL as Derby's checker, in one REPEATABLE READ snapshot (a quiet database in any case). */
    @Override
    public List<ConsistencyViolation> checkConsistency(int warehouses, boolean afterLoad, int loadedDeliveredOrders)
            throws SQLException {
        return checkConsistencyAt(Connection.TRANSACTION_REPEATABLE_READ, afterLoad, loadedDeliveredOrders);
    }

    @Override
    public Session openSession() throws SQLException {
        if (mode == Mode.JDBC) {
            return new JdbcTpccSession(connect(writersIsolation), writersIsolation, RETRY);
        }
        Connection writers = connect(writersIsolation);
        try {
            return new PlpgsqlTpccSession(writers, connect(Connection.TRANSACTION_READ_COMMITTED));
        } catch (SQLException | RuntimeException e) {
            writers.close();
            throw e;
        }
    }

    /** Serialization failure or deadlock: the transaction was rolled back and may run again. */
    static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state);
    }

    /** The whole server's CPU: the postmaster, its backends (live and ended) and its auxiliary processes. */
    @Override
    public Map<String, Double> processCpuSeconds() throws IOException {
        return Map.of("postgres server", ProcessCpu.secondsWithChildren(server.pid()));
    }

    /** Drops nothing: the database lives as long as its server (the caller closes that). */
    @Override
    public void close() {
    }
}

package org.elastras.experiments.otm;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The baseline: the same transaction as {@link ItemProcedures}' {@code readTenWriteFive} on
 * embedded Apache Derby through JDBC, one connection per client thread, autocommit off,
 * SERIALIZABLE (Derby's two-phase locking with row and index-range locks; the OTM's default level
 * is SERIALIZABLE too), and Derby's default durability: the log is synced before {@code commit()}
 * returns. Deadlocks (SQLState 40001) and lock timeouts (40XL1, 40XL2) roll back and run the
 * transaction again, at most {@link #ATTEMPTS_MAX} times, as the OTM re-runs a procedure.
 *
 * <p>Tuning, stated: the page cache holds the whole table (as the OTM's memtable and block cache
 * do), and Derby looks for deadlocks after {@link #DEADLOCK_CHECK_SECONDS} s of waiting instead of
 * its default 20 s, which would stall both transactions of a deadlock for 20 s. Neither changes
 * durability or isolation.
 *
 * <p>Created, loaded and closed by the benchmark's main thread; sessions are per client thread.
 */
final class DerbyTarget implements TransactionTarget, AutoCloseable {

    /** Same bound as the OTM's procedure retries. */
    static final int ATTEMPTS_MAX = 16;
    static final int DEADLOCK_CHECK_SECONDS = 1;
    static final int LOCK_WAIT_SECONDS = 10;
    /** 4 KiB pages: 16,384 of them are 64 MiB, more than 100,000 rows of this table need. */
    static final int PAGE_CACHE_PAGES = 16_384;
    private static final int LOAD_ROWS_PER_COMMIT = 1_000;
    private static final String URL = "jdbc:derby:procbench";

    private final long rows;

    private DerbyTarget(long rows) {
        this.rows = rows;
    }

    /**
     * Creates the database under {@code scratch} and loads rows 0..rows-1 with balance 0. Derby's
     * system properties are set here, before its engine boots: this must be the JVM's only Derby.
     */
    static DerbyTarget createAndLoad(Path scratch, long rows) throws SQLException {
        System.setProperty("derby.system.home", scratch.toAbsolutePath().toString());
        System.setProperty("derby.stream.error.file", scratch.resolve("derby.log").toAbsolutePath().toString());
        System.setProperty("derby.storage.pageCacheSize", Integer.toString(PAGE_CACHE_PAGES));
        System.setProperty("derby.locks.deadlockTimeout", Integer.toString(DEADLOCK_CHECK_SECONDS));
        System.setProperty("derby.locks.waitTimeout", Integer.toString(LOCK_WAIT_SECONDS));
        try (Connection c = DriverManager.getConnection(URL + ";create=true")) {
            c.setAutoCommit(false);
            try (Statement ddl = c.createStatement()) {
                ddl.execute(ItemTable.DERBY_DDL);
            }
            c.commit();
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO ITEMS (ID, BALANCE, NAME, NOTE) VALUES (?, 0, ?, ?)")) {
                for (long id = 0; id < rows; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, ItemTable.name(id));
                    insert.setString(3, ItemTable.note(id));
                    insert.addBatch();
                    if ((id + 1) % LOAD_ROWS_PER_COMMIT == 0 || id + 1 == rows) {
                        insert.executeBatch();
                        c.commit();
                    }
                }
            }
            // Fresh optimizer statistics for the primary key index, as after any bulk load.
            try (Statement stats = c.createStatement()) {
                stats.execute("CALL SYSCS_UTIL.SYSCS_UPDATE_STATISTICS('APP', 'ITEMS', NULL)");
            }
            c.commit();
        }
        return new DerbyTarget(rows);
    }

    @Override
    public String name() {
        return "derby-jdbc";
    }

    @Override
    public String description() {
        return "Apache Derby embedded, JDBC, connection per thread, autocommit off, SERIALIZABLE, log sync on commit";
    }

    @Override
    public int writesPerTransaction() {
        return ItemTable.WRITES_PER_TRANSACTION;
    }

    @Override
    public Session openSession() throws SQLException {
        Connection c = DriverManager.getConnection(URL);
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
        PreparedStatement select = c.prepareStatement("SELECT BALANCE, NAME, NOTE FROM ITEMS WHERE ID = ?");
        PreparedStatement update = c.prepareStatement("UPDATE ITEMS SET BALANCE = ? WHERE ID = ?");
        return new Session() {
            private final long[] balances = new long[ItemTable.READS_PER_TRANSACTION];

            @Override
            public int run(long[] keys) throws SQLException {
                for (int attempt = 1; ; attempt++) {
                    try {
                        for (int i = 0; i < keys.length; i++) {
                            select.setLong(1, keys[i]);
                            try (ResultSet row = select.executeQuery()) {
                                if (!row.next()) {
                                    throw new IllegalStateException("no item " + keys[i] + " in Derby");
                                }
                                balances[i] = row.getLong(1);
                                row.getString(2);
                                row.getString(3);
                            }
                        }
                        for (int i = 0; i < ItemTable.WRITES_PER_TRANSACTION; i++) {
                            update.setLong(1, balances[i] + 1);
                            update.setLong(2, keys[i]);
                            if (update.executeUpdate() != 1) {
                                throw new IllegalStateException("item " + keys[i] + " vanished from Derby");
                            }
                        }
                        c.commit();
                        return attempt - 1;
                    } catch (SQLException e) {
                        c.rollback();
                        if (!retryable(e) || attempt == ATTEMPTS_MAX) {
                            throw e;
                        }
                    }
                }
            }

            @Override
            public void close() throws SQLException {
                select.close();
                update.close();
                c.rollback();
                c.close();
            }
        };
    }

    /** Deadlock victim or lock wait timeout: the transaction was rolled back and may run again. */
    static boolean retryable(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40XL1".equals(state) || "40XL2".equals(state);
    }

    @Override
    public long balanceSum() throws SQLException {
        try (Connection c = DriverManager.getConnection(URL)) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT SUM(BALANCE), COUNT(*) FROM ITEMS")) {
                r.next();
                long sum = r.getLong(1);
                long count = r.getLong(2);
                c.commit();
                if (count != rows) {
                    throw new IllegalStateException("Derby holds " + count + " item rows, expected " + rows);
                }
                return sum;
            }
        }
    }

    /** Shuts the Derby engine down (Derby reports a clean shutdown as SQLState XJ015). */
    @Override
    public void close() {
        try {
            DriverManager.getConnection("jdbc:derby:;shutdown=true").close();
        } catch (SQLException e) {
            if (!"XJ015".equals(e.getSQLState())) {
                System.err.println("Derby did not shut down cleanly: " + e);
            }
        }
    }
}

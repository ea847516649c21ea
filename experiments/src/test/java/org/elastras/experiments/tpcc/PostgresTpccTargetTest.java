package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The contract on PostgreSQL in the interactive JDBC mode, SERIALIZABLE, on a private server
 * ({@link PostgresTestServer}); plus the mix at REPEATABLE READ.
 */
class PostgresTpccTargetTest extends TpccTargetContract {

    @BeforeAll
    static void server() throws Exception {
        PostgresTestServer.require();
    }

    @Override
    TpccTarget loadedTarget(Path directory) throws Exception {
        return PostgresTestServer.copy(PostgresTpccTarget.Mode.JDBC, Connection.TRANSACTION_SERIALIZABLE);
    }

    @Test
    void mixedTransactionsAtRepeatableReadKeepTheDatabaseConsistent() throws Exception {
        target = PostgresTestServer.copy(PostgresTpccTarget.Mode.JDBC, Connection.TRANSACTION_REPEATABLE_READ);
        assertEquals("postgres-jdbc-si", target.name());
        long newOrders = runMix(target, generator, 4, 60, 1);
        assertTrue(newOrders > 80, "committed New-Orders " + newOrders);
        assertEquals(List.of(), check(false));
    }
}

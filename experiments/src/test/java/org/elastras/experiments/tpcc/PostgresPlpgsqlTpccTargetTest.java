package org.elastras.experiments.tpcc;

import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.BeforeAll;

/**
 * The contract on PostgreSQL with the five transactions as PL/pgSQL functions, SERIALIZABLE, on
 * the shared private server ({@link PostgresTestServer}): the functions must do what the JDBC
 * statements and the stored procedures do, down to the rows they leave.
 */
class PostgresPlpgsqlTpccTargetTest extends TpccTargetContract {

    @BeforeAll
    static void server() throws Exception {
        PostgresTestServer.require();
    }

    @Override
    TpccTarget loadedTarget(Path directory) throws Exception {
        return PostgresTestServer.copy(PostgresTpccTarget.Mode.PLPGSQL, Connection.TRANSACTION_SERIALIZABLE);
    }
}

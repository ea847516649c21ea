package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * The PostgreSQL server the PostgreSQL test classes share in one test JVM: started on first use
 * with a template database loaded by {@link TpccTargetContract#load}, stopped and deleted when the
 * JVM exits. Each test gets its own copy of the template ({@code CREATE DATABASE ... TEMPLATE}).
 * The server runs with fsync and synchronous_commit off: the tests check logic, not durability
 * (the benchmark keeps both on).
 *
 * <p>{@link #require} skips the calling class when PostgreSQL is not installed, unless
 * {@code ELASTRAS_REQUIRE_POSTGRES} is set (CI sets it after installing the package): then the
 * absence fails it. Thread-safe (synchronized).
 */
final class PostgresTestServer {

    private static final String TEMPLATE = "tpcc_template";
    private static final AtomicInteger COPIES = new AtomicInteger();
    private static PostgresServer server;

    private PostgresTestServer() {
    }

    /** Starts the server and loads the template once per JVM; skips or fails the caller if PostgreSQL is missing. */
    static synchronized void require() throws Exception {
        if (server != null) {
            return;
        }
        boolean installed = PostgresServer.installed();
        if (System.getenv("ELASTRAS_REQUIRE_POSTGRES") == null) {
            Assumptions.assumeTrue(installed, "PostgreSQL is not installed (apt-get install postgresql)");
        }
        assertTrue(installed, "ELASTRAS_REQUIRE_POSTGRES is set but PostgreSQL is not installed");
        PostgresServer started = PostgresServer.start(Map.of("fsync", "off", "synchronous_commit", "off",
                "full_page_writes", "off", "max_connections", "40"));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                started.close();
            } catch (Exception e) {
                System.err.println("the test PostgreSQL server did not close: " + e);
            }
        }, "postgres-test-server-close"));
        PostgresTpccTarget template = PostgresTpccTarget.create(started, TEMPLATE, PostgresTpccTarget.Mode.JDBC,
                Connection.TRANSACTION_SERIALIZABLE);
        TpccTargetContract.load(template);
        template.analyze();
        server = started;
    }

    /** A fresh copy of the loaded template. */
    static synchronized PostgresTpccTarget copy(PostgresTpccTarget.Mode mode, int writersIsolation) throws Exception {
        require();
        return PostgresTpccTarget.copy(server, TEMPLATE, "tpcc_test_" + COPIES.incrementAndGet(), mode, writersIsolation);
    }
}

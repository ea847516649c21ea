package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.elastras.client.OtmClient;
import org.elastras.client.protocol.AbortRequest;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.OpenPartitionRequest;
import org.elastras.client.protocol.RegisterDatabaseRequest;
import org.elastras.client.protocol.SchemaSpec;
import org.elastras.otm.txn.TransactionLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A client (one connection) that leaks transactions hits its own limit, not everyone's. */
class OpenTransactionsAreLimitedPerClientTest {

    @TempDir
    Path temp;

    @Test
    void oneClientsOpenTransactionsAreBoundedAndOthersAreUnaffected() throws Exception {
        TransactionLimits limits = TransactionLimits.DEFAULT.withOpenTransactions(100, 3);
        try (TestingServer zk = new TestingServer(true);
                OtmNode otm = OtmNode.start(new OtmConfig("otm-l", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri(), "127.0.0.1", 0, 4_000), limits);
                OtmClient greedy = new OtmClient("127.0.0.1", otm.port());
                OtmClient polite = new OtmClient("127.0.0.1", otm.port())) {
            greedy.registerDatabase(new RegisterDatabaseRequest(SchemaSpec.of(BankProcedures.schema())));
            greedy.openPartition(new OpenPartitionRequest("BANK", 1, null, null));
            List<Long> open = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                open.add(greedy.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId());
            }
            ElasTrasException e = assertThrows(ElasTrasException.class,
                    () -> greedy.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)));
            assertEquals(ErrorCode.LIMIT_EXCEEDED, e.code());
            assertTrue(e.getMessage().contains("openTransactionsPerClientMax"), e.getMessage());
            assertTrue(polite.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId() > 0,
                    "another client is not affected");
            greedy.abort(new AbortRequest(open.get(0)));
            assertTrue(greedy.begin(new BeginRequest("BANK", 1, Isolation.SERIALIZABLE, 0)).txnId() > 0,
                    "ending one frees a slot");
        }
    }
}

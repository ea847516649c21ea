package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.CloseReport;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.otm.txn.Isolation;
import org.elastras.otm.txn.RowTransaction;
import org.elastras.otm.txn.TransactionManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a partition (for a move) holds up as little as it can: while one close is stuck
 * writing its flush to the DFS, another partition of the OTM closes (and one opens) at once
 * instead of queueing behind it; and a large memtable is flushed while its partition still
 * serves. Either way the closed partition keeps its data.
 */
class ClosingAPartitionHoldsUpNothingElseTest {

    private static final DatabaseSchema BANK = DatabaseSchema.singlePartition("BANK")
            .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
            .build();
    private static final DatabaseSchema DOCS = DatabaseSchema.singlePartition("DOCS")
            .plain("PAGES", t -> t.column("ID", ColumnType.BIGINT).column("TEXT", ColumnType.varchar(4_000)).key("ID"))
            .build();

    private final GatedDfs dfs = new GatedDfs();
    private StandaloneHost node;
    private TransactionManager transactions;
    private PartitionHost host;

    @BeforeEach
    void start() throws IOException {
        node = StandaloneHost.start(dfs, "otm-t");
        transactions = node.transactions();
        host = node.host();
        host.registerDatabase(BANK);
        host.registerDatabase(DOCS);
    }

    @AfterEach
    void stop() throws IOException {
        dfs.release();
        node.stop();
    }

    private void deposit(long partitionId, long account, long amount) {
        RowTransaction t = host.served(partitionId).access().begin(transactions, Isolation.SERIALIZABLE, "test");
        t.put("ACCOUNTS", Arrays.asList(account, amount));
        t.commit();
    }

    private Long balance(long partitionId, long account) {
        RowTransaction t = host.served(partitionId).access().begin(transactions, Isolation.SNAPSHOT, "test");
        List<Object> row = t.get("ACCOUNTS", List.of(account));
        t.commit();
        return row == null ? null : (Long) row.get(1);
    }

    @Test
    void aCloseStuckOnTheDfsHoldsUpNoOtherPartition() throws Exception {
        host.open("BANK", 1, null, null);
        host.open("BANK", 2, null, null);
        deposit(1, 7, 100);
        deposit(2, 8, 200);

        dfs.gatedPrefix = PartitionDirectories.of("BANK", 1) + "/";
        CompletableFuture<Void> stuck = CompletableFuture.runAsync(() -> {
            try {
                host.close(1);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> dfs.blocked.await(), "partition 1's close never wrote");

        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            host.close(2);
            host.open("BANK", 3, null, null);
        }, "partition 2's close or 3's open waited for partition 1's");
        assertEquals(ErrorCode.NOT_OWNER, assertThrows(ElasTrasException.class, () -> host.served(2)).code());
        assertNotNull(host.served(3));
        assertFalse(stuck.isDone(), "partition 1's close is still held by the DFS");

        dfs.release();
        stuck.get(20, TimeUnit.SECONDS);
        host.open("BANK", 1, null, null);
        host.open("BANK", 2, null, null);
        assertEquals(100L, balance(1, 7), "partition 1 closed with its data");
        assertEquals(200L, balance(2, 8), "partition 2 closed with its data");
    }

    @Test
    void aLargeMemtableIsFlushedWhileThePartitionStillServes() throws Exception {
        host.open("DOCS", 4, null, null);
        String text = "x".repeat(3_000);
        long pages = 0;
        while (host.served(4).store().stats().memtableBytes() < PartitionHost.PRE_FLUSH_BYTES_MIN) {
            RowTransaction t = host.served(4).access().begin(transactions, Isolation.SERIALIZABLE, "test");
            for (int i = 0; i < 100; i++) {
                t.put("PAGES", Arrays.asList(pages++, text));
            }
            t.commit();
        }

        dfs.gatedPrefix = PartitionDirectories.of("DOCS", 4) + "/";
        long closeCalledAt = System.currentTimeMillis();
        CompletableFuture<CloseReport> closing = CompletableFuture.supplyAsync(() -> {
            try {
                return host.close(4);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> dfs.blocked.await(), "the close never flushed");
        // The close is writing the table: the partition still takes reads and commits.
        RowTransaction during = host.served(4).access().begin(transactions, Isolation.SERIALIZABLE, "test");
        during.put("PAGES", Arrays.asList(pages, "written during the flush"));
        during.commit();
        assertFalse(closing.isDone());

        Thread.sleep(50);
        long releasedAt = System.currentTimeMillis();
        dfs.release();
        CloseReport report = closing.get(20, TimeUnit.SECONDS);
        long closedAt = System.currentTimeMillis();
        assertEquals(ErrorCode.NOT_OWNER, assertThrows(ElasTrasException.class, () -> host.served(4)).code());
        assertTrue(report.stoppedAtEpochMs() >= releasedAt && report.stoppedAtEpochMs() <= closedAt,
                "it stopped admitting only after the flush held by the DFS: " + report + ", released at " + releasedAt);
        assertTrue(report.flushedWhileServingMs() >= 50 && report.flushedWhileServingMs() <= closedAt - closeCalledAt,
                "the held flush is counted as made while serving: " + report);
        assertTrue(report.servedNobodyMs() >= 0 && report.servedNobodyMs() <= closedAt - report.stoppedAtEpochMs(), report.toString());
        host.open("DOCS", 4, null, null);
        RowTransaction after = host.served(4).access().begin(transactions, Isolation.SNAPSHOT, "test");
        assertEquals(text, after.get("PAGES", List.of(0L)).get(1));
        assertEquals("written during the flush", after.get("PAGES", List.of(pages)).get(1), "the commit made while the"
                + " close flushed is kept");
        after.commit();
    }
}

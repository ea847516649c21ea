package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.otm.txn.Isolation;
import org.elastras.otm.txn.RowTransaction;
import org.elastras.otm.txn.TransactionManager;
import org.elastras.storage.wal.WalNames;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An OTM warms its partition open path before it takes its lease by opening and closing a
 * scratch partition of a scratch database, and the destination's side of a live move by
 * receiving copies of it: those paths really run (their manifests are written in the OTM's
 * warm-up directory, and every version shipped to a copy is read back from it once it serves),
 * and they leave nothing behind: no schema, no served partition, no
 * scratch files, and not one segment of the OTM's log deleted (an old log of the same OTM id may
 * still be waiting for the master to recover it).
 */
class TheOpenPathWarmUpLeavesNothingBehindTest {

    private static final DatabaseSchema BANK = DatabaseSchema.singlePartition("BANK")
            .plain("ACCOUNTS", t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
            .build();

    private final GatedDfs dfs = new GatedDfs();
    private StandaloneHost node;
    private TransactionManager transactions;
    private PartitionHost host;

    /** A host of OTM "otm-t" on a log of its own, which continues an older log of that id if there is one. */
    private void startHost() throws IOException {
        node = StandaloneHost.start(dfs, "otm-t");
        transactions = node.transactions();
        host = node.host();
    }

    private void stopHost() throws IOException {
        node.stop();
    }

    @AfterEach
    void stop() throws IOException {
        stopHost();
    }

    @Test
    void theScratchPartitionOpensAndClosesAndLeavesNoTrace() throws Exception {
        // An OTM of this id committed to a partition and stopped: its log waits for the master's recovery.
        startHost();
        host.registerDatabase(BANK);
        host.open("BANK", 1, null, null);
        RowTransaction t = host.served(1).access().begin(transactions, Isolation.SERIALIZABLE, "test");
        t.put("ACCOUNTS", Arrays.asList(7L, 100L));
        t.commit();
        stopHost();
        // It starts again and warms up before it takes its lease.
        startHost();
        List<String> segmentsBefore = dfs.list(WalNames.liveDirectory("otm-t"));
        assertTrue(segmentsBefore.size() >= 2, "the old log's segment and the new one: " + segmentsBefore);
        int createdBefore = dfs.created.size();

        int copied = host.warmUp();

        assertEquals(PartitionHost.WARMUP_ROUNDS * PartitionHost.WARMUP_COPY_BATCHES * PartitionHost.WARMUP_COPY_COMMITS
                * PartitionHost.WARMUP_COPY_KEYS, copied, "every round's live copy served every version shipped to it");

        String scratch = PartitionHost.warmupDirectory("otm-t") + "/partition/";
        long scratchManifests = dfs.created.subList(createdBefore, dfs.created.size()).stream()
                .filter(p -> p.startsWith(scratch) && p.contains("MANIFEST"))
                .count();
        assertTrue(scratchManifests >= 4L * PartitionHost.WARMUP_ROUNDS, "each round recovers and hands over the scratch"
                + " partition, then begins a live copy of it and hands that over, a manifest each; written: " + dfs.created.subList(createdBefore, dfs.created.size()));
        assertEquals(segmentsBefore, dfs.list(WalNames.liveDirectory("otm-t")), "no log segment was deleted");
        assertFalse(dfs.exists(PartitionHost.warmupDirectory("otm-t")), "the scratch files are gone");
        assertEquals(ErrorCode.UNKNOWN_DATABASE, assertThrows(ElasTrasException.class,
                () -> host.database(PartitionHost.WARMUP_DATABASE)).code(), "the scratch schema is gone");
        assertEquals(ErrorCode.NOT_OWNER, assertThrows(ElasTrasException.class,
                () -> host.served(PartitionHost.WARMUP_PARTITION_ID)).code(), "the scratch partition serves nowhere");
        assertFalse(host.receiving(PartitionHost.WARMUP_PARTITION_ID), "no copy of it is left");
        host.registerDatabase(BANK);
        host.open("BANK", 1, null, null);
        RowTransaction read = host.served(1).access().begin(transactions, Isolation.SNAPSHOT, "test");
        assertEquals(List.of(7L, 100L), read.get("ACCOUNTS", List.of(7L)), "the old log's commit is still recovered");
        read.commit();
    }
}

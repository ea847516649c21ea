package org.elastras.experiments.xpartition;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.elastras.catalog.schema.ColumnType;
import org.elastras.catalog.schema.DatabaseSchema;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.experiments.ResultFiles;
import org.elastras.master.balance.BalanceConfig;
import org.elastras.master.cluster.Master;
import org.elastras.master.cluster.MasterConfig;
import org.elastras.otm.server.OtmConfig;
import org.elastras.otm.server.OtmNode;

/**
 * A local cluster in this JVM for measuring and showing cross-partition transactions: ZooKeeper
 * (500 ms tick), one master with balancing off (so nothing moves on its own), 2 or 3 OTMs
 * ({@code otm-1}, ...) on the local DFS in a temporary directory, and database {@link #DATABASE}:
 * {@code ACCOUNT(ID BIGINT, BALANCE BIGINT)}, split at {@link #SPAN} into two partitions, placed on
 * two different OTMs (or, for recovery tests, on one). Account {@code i} of partition {@code p} has id
 * {@code p * SPAN + i}. Not thread-safe to start and close; the client is.
 */
final class TwoPartitionCluster implements AutoCloseable {

    static final String DATABASE = "XBENCH";
    static final String TABLE = "ACCOUNT";
    /** Partition p holds ids p * SPAN up to the next multiple. */
    static final long SPAN = 1_000_000;
    static final long SETUP_TIMEOUT_SECONDS = 120;

    private final Path temp;
    private final TestingServer zk;
    private final List<OtmNode> otms = new ArrayList<>();
    /** Set once by the constructor (null if it failed before). */
    private Master master;
    private ElasTrasClient client;
    private String placement;

    /** Where the two partitions are put once created. */
    enum Placement {
        APART,
        TOGETHER
    }

    private TwoPartitionCluster(int otmCount, Placement placement) throws Exception {
        if (otmCount < 2 || otmCount > 3) {
            throw new IllegalArgumentException("2 or 3 OTMs (the two partitions need two owners), got " + otmCount);
        }
        temp = Files.createTempDirectory("xpartition");
        zk = new TestingServer(new InstanceSpec(temp.resolve("zk").toFile(), -1, -1, -1, true, 1, 500, 0), true);
        try {
            startRest(otmCount, placement);
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    private void startRest(int otmCount, Placement wanted) throws Exception {
        String connect = zk.getConnectString();
        for (int i = 1; i <= otmCount; i++) {
            otms.add(OtmNode.start(new OtmConfig("otm-" + i, connect, "/elastras", temp.resolve("dfs").toUri(), "127.0.0.1", 0,
                    OtmConfig.DEFAULT_SESSION_TIMEOUT_MS).inCluster()));
        }
        BalanceConfig off = new BalanceConfig(0, BalanceConfig.DEFAULT.window(), BalanceConfig.DEFAULT.policy());
        master = Master.start(MasterConfig.defaults("master-1", connect, "/elastras", temp.resolve("dfs").toUri()).withBalance(off));
        client = ElasTrasClient.connect(connect);
        await("the master to become active", master::active);
        client.admin().createDatabase(DatabaseSchema.tree(DATABASE)
                .root(TABLE, t -> t.column("ID", ColumnType.BIGINT).column("BALANCE", ColumnType.BIGINT).key("ID"))
                .build(), List.of(List.of(SPAN)));
        await("both partitions to serve", () -> serving().size() == 2);
        placement = wanted == Placement.APART ? placeOnTwoOtms() : placeOnOneOtm();
    }

    /** Starts it with the partitions on two OTMs; on a failure closes what had started. */
    static TwoPartitionCluster start(int otmCount) throws Exception {
        return new TwoPartitionCluster(otmCount, Placement.APART);
    }

    /** Starts it with the partitions placed as asked; on a failure closes what had started. */
    static TwoPartitionCluster start(int otmCount, Placement placement) throws Exception {
        return new TwoPartitionCluster(otmCount, placement);
    }

    /** The OTM {@code otmId} of this cluster. */
    OtmNode otm(String otmId) {
        return otms.stream().filter(o -> o.otmId().equals(otmId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no OTM " + otmId));
    }

    /** The owner the master names for partition {@code index} (0 or 1, in key order), null if none serves it. */
    String ownerOf(int index) {
        return serving().stream().filter(p -> (index == 0) == (p.startKey() == null || p.startKey().isEmpty()))
                .map(PartitionInfo::owner).findFirst().orElse(null);
    }

    /** Whether both partitions are SERVING. */
    boolean bothServing() {
        return serving().size() == 2;
    }

    ElasTrasClient client() {
        return client;
    }

    /** "partition A on otm-x, partition B on otm-y", in key order, as placed at the start. */
    String placement() {
        return placement;
    }

    /** The placement now. */
    String currentPlacement() {
        List<String> owners = serving().stream().map(p -> "partition " + p.partitionId() + " on " + p.owner()).toList();
        return String.join(", ", owners);
    }

    /** Opens {@code accounts} accounts in each partition with {@code balance} each, up to 200 per transaction. */
    void openAccounts(int accounts, long balance) {
        for (int p = 0; p < 2; p++) {
            for (int from = 0; from < accounts; from += 200) {
                long first = p * SPAN + from;
                int count = Math.min(200, accounts - from);
                client.runInTransaction(DATABASE, List.of(first), txn -> {
                    for (long id = first; id < first + count; id++) {
                        txn.put(TABLE, java.util.Map.of("ID", id, "BALANCE", balance));
                    }
                    return null;
                });
            }
        }
    }

    /** The XBENCH partitions serving, by id. */
    private List<PartitionInfo> serving() {
        return client.admin().partitions(DATABASE).stream().filter(p -> p.state().equals("SERVING"))
                .sorted((a, b) -> Long.compare(a.partitionId(), b.partitionId())).toList();
    }

    /** Moves the second partition to another OTM if both landed on one; returns the placement. */
    private String placeOnTwoOtms() throws InterruptedException {
        List<PartitionInfo> parts = serving();
        PartitionInfo first = parts.stream().filter(p -> p.startKey() == null || p.startKey().isEmpty()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no partition starts at the lowest key: " + parts));
        PartitionInfo second = parts.stream().filter(p -> p.partitionId() != first.partitionId()).findFirst().orElseThrow();
        if (first.owner().equals(second.owner())) {
            String other = first.owner().equals("otm-1") ? "otm-2" : "otm-1";
            client.admin().movePartition(second.partitionId(), other);
            await("partition " + second.partitionId() + " to serve on " + other, () -> serving().stream()
                    .anyMatch(p -> p.partitionId() == second.partitionId() && other.equals(p.owner())));
        }
        List<PartitionInfo> now = serving();
        if (now.size() != 2 || now.get(0).owner().equals(now.get(1).owner())) {
            throw new IllegalStateException("the two partitions are not on two OTMs: " + now);
        }
        return currentPlacement();
    }

    /** Moves the second partition to the first one's OTM if they are apart; returns the placement. */
    private String placeOnOneOtm() throws InterruptedException {
        String first = ownerOf(0);
        String second = ownerOf(1);
        if (!first.equals(second)) {
            List<PartitionInfo> parts = serving();
            long secondId = parts.stream().filter(p -> second.equals(p.owner()) && p.startKey() != null && !p.startKey().isEmpty())
                    .findFirst().orElseThrow().partitionId();
            client.admin().movePartition(secondId, first);
            await("partition " + secondId + " to serve on " + first, () -> first.equals(ownerOf(1)) && bothServing());
        }
        return currentPlacement();
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETUP_TIMEOUT_SECONDS);
        while (true) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) {
                // Not ready yet (no active master, a partition opening): ask again.
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("timed out after " + SETUP_TIMEOUT_SECONDS + " s waiting for " + what);
            }
            Thread.sleep(50);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (client != null) {
                client.close();
            }
            if (master != null) {
                master.close();
            }
        } finally {
            for (OtmNode otm : otms) {
                otm.close();
            }
            zk.close();
            ResultFiles.deleteTree(temp);
        }
    }
}

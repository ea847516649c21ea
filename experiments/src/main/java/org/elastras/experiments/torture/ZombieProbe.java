package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.elastras.catalog.meta.CatalogSchemas;
import org.elastras.client.OtmClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.BeginRequest;
import org.elastras.client.protocol.CommitRequest;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.Isolation;
import org.elastras.client.protocol.PartitionInfo;
import org.elastras.client.protocol.PutRequest;

/**
 * Asks a resumed zombie OTM (paused past its heartbeat timeout, so declared failed and its
 * partitions reopened elsewhere) to commit one write in each partition it owned before the pause,
 * straight through {@link OtmClient}, as a client with a stale route would. DESIGN.md invariant 1:
 * it must acknowledge none. Each write goes to a probe key the workloads never use, so that the
 * final read can also tell whether a refused write is visible. Stateless; one probe per call.
 */
final class ZombieProbe {

    /** Index of the first probe key in a partition's range, far above the workloads' keys. */
    static final long PROBE_KEY_INDEX_BASE = 900_000;
    static final long REQUEST_TIMEOUT_MS = 5_000;

    /**
     * One write the zombie was asked to commit.
     *
     * @param acknowledged the zombie said it committed (a violation)
     * @param unknown      no answer (timeout): it may be visible or not
     * @param answer       the error code, "committed at CTS ..." or the failure
     */
    record Attempt(String otm, String database, long partitionId, long key, boolean acknowledged, boolean unknown, String answer) {
    }

    private ZombieProbe() {
    }

    /** The partition index (TortureDatabases) of a partition, from its first root key. */
    static int partitionIndex(PartitionInfo partition) {
        return partition.startKey() == null || partition.startKey().isEmpty() ? 0
                : TortureDatabases.partitionOf(((Number) partition.startKey().get(0)).longValue());
    }

    /** Tries one commit per partition in {@code owned} at the zombie {@code otm} on {@code port}. */
    static List<Attempt> probe(String otm, int port, List<PartitionInfo> owned, int faultIndex) {
        List<Attempt> attempts = new ArrayList<>();
        try (OtmClient zombie = new OtmClient("127.0.0.1", port, OtmClientConfig.defaults().withRequestTimeoutMs(REQUEST_TIMEOUT_MS))) {
            for (PartitionInfo partition : owned) {
                if (CatalogSchemas.reserved(partition.database())) {
                    continue; // The catalog's ROOT and META: fenced the same way, and their rows have another shape.
                }
                long key = TortureDatabases.key(partitionIndex(partition), PROBE_KEY_INDEX_BASE + faultIndex);
                Map<String, Object> row = partition.database().equals(TortureDatabases.LIST_DATABASE) ? Map.of("K", key, "V", "zombie")
                        : Map.of("ID", key, "BALANCE", 0L);
                String table = partition.database().equals(TortureDatabases.LIST_DATABASE) ? TortureDatabases.LIST_TABLE
                        : TortureDatabases.BANK_TABLE;
                boolean committing = false;
                try {
                    long txn = zombie.begin(new BeginRequest(partition.database(), partition.partitionId(), Isolation.SERIALIZABLE, 0))
                            .txnId();
                    zombie.put(new PutRequest(txn, table, row));
                    committing = true;
                    long cts = zombie.commit(new CommitRequest(txn)).cts();
                    attempts.add(new Attempt(otm, partition.database(), partition.partitionId(), key, true, false, "committed at CTS " + cts));
                } catch (ElasTrasException e) {
                    boolean unknown = committing && (e.code() == ErrorCode.OUTCOME_UNKNOWN || e.code() == ErrorCode.INTERNAL);
                    attempts.add(new Attempt(otm, partition.database(), partition.partitionId(), key, false, unknown, e.code().name()));
                } catch (RuntimeException e) {
                    attempts.add(new Attempt(otm, partition.database(), partition.partitionId(), key, false, committing, e.toString()));
                }
            }
        }
        return attempts;
    }
}

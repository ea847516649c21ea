package org.elastras.storage.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.util.CloseableIterator;
import org.elastras.storage.wal.WalEntry;
import org.elastras.storage.wal.WalPosition;
import org.elastras.storage.wal.WalReader;
import org.elastras.storage.wal.WalRecord;

/**
 * REDO recovery of one partition: replays, from every write-ahead log its manifest names, the
 * records of this partition at or after the manifest's replay point for that log. Idempotent:
 * versions already in the store are no-ops, so running it twice, or over records that were
 * flushed already, changes nothing.
 *
 * <p>Stateless; the store must be in recovery (opened, {@code finishRecovery} not yet called).
 */
public final class PartitionRecovery {

    /** What one recovery replayed. */
    public record Result(int logsRead, long recordsRead, long versionsApplied) {
    }

    private PartitionRecovery() {
    }

    /**
     * @param walDirectoryOf maps a WAL id to its directory on the DFS (a fenced log may have been
     *     renamed by the master)
     * @throws org.elastras.storage.util.CorruptionException if a log is corrupt before its tail
     */
    public static Result replay(PartitionStore store, long partitionId, Dfs dfs, Function<String, String> walDirectoryOf)
            throws IOException {
        return replay(store, partitionId, dfs, walDirectoryOf, (walId, entry) -> false);
    }

    /**
     * Decides, record by record, whether a replay applies a record or leaves it to the caller: a
     * participant's prepare record of a cross-partition transaction is applied only once its
     * coordinator's outcome is known, which the storage layer cannot tell.
     */
    @FunctionalInterface
    public interface Deferral {
        /** @return true if the caller takes {@code entry} of log {@code walId} (it is then not applied) */
        boolean defer(String walId, WalEntry entry);
    }

    /**
     * {@link #replay(PartitionStore, long, Dfs, Function)}, leaving the records {@code deferral}
     * takes unapplied.
     */
    public static Result replay(PartitionStore store, long partitionId, Dfs dfs, Function<String, String> walDirectoryOf,
            Deferral deferral) throws IOException {
        int logs = 0;
        long records = 0;
        long applied = 0;
        for (Map.Entry<String, WalPosition> e : store.replayPoints().entrySet()) {
            String directory = walDirectoryOf.apply(e.getKey());
            logs++;
            try (CloseableIterator<WalEntry> it = WalReader.replay(dfs, directory, e.getValue())) {
                while (it.hasNext()) {
                    WalEntry entry = it.next();
                    records++;
                    if (deferral.defer(e.getKey(), entry)) {
                        continue;
                    }
                    List<Version> versions = versionsOf(entry.record(), partitionId);
                    if (!versions.isEmpty()) {
                        applied += store.apply(e.getKey(), entry.position(), versions);
                    }
                }
            } catch (UncheckedIOException ex) {
                throw ex.getCause();
            }
        }
        return new Result(logs, records, applied);
    }

    /** The versions a WAL record holds for one partition (empty if none). */
    public static List<Version> versionsOf(WalRecord record, long partitionId) {
        List<Version> versions = new ArrayList<>();
        for (WalRecord.Mutation m : record.mutations()) {
            if (m.partitionId() == partitionId) {
                versions.add(new Version(m.key(), record.cts(), m.value()));
            }
        }
        return versions;
    }
}

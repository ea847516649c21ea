package org.elastras.storage.wal;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.LongSupplier;
import org.elastras.storage.dfs.Dfs;

/**
 * Where the write-ahead logs of the OTMs live on the DFS, and how they are named. Every run of an
 * OTM process writes a log of its own, {@code wal/<otm id>@<start time>}, which a master fences by
 * renaming it to {@code wal-fenced/<same name>}; partition manifests name the log (its wal id) that
 * their replay points refer to. A log is never reopened by a later run of the same OTM id: once a
 * log is fenced, a new log under its name would be invisible to recovery (which reads the fenced
 * directory once it exists), and a run that died unfenced may still hold the only copy of
 * acknowledged commits of partitions another OTM has yet to recover. Stateless.
 *
 * <p>The separator {@code '@'} is not allowed in an OTM id ({@code ZkPaths.checkOtmId}), so the
 * logs of {@code otm-1} are never confused with those of {@code otm-1.x} or {@code otm-10}. A log
 * named by the bare OTM id (written before logs were per run) still belongs to that id.
 */
public final class WalNames {

    /** The DFS directory holding every live (unfenced) log. */
    public static final String LIVE_ROOT = "wal";
    /** The DFS directory a master moves a dead OTM's logs to. */
    public static final String FENCED_ROOT = "wal-fenced";
    /** Between the OTM id and the run's start time in a wal id. */
    public static final char SEPARATOR = '@';

    private static final DateTimeFormatter RUN_TIME = DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmssSSS'Z'")
            .withZone(ZoneOffset.UTC);
    /** Bounds the tries for an unused name (a name in use is followed by the next millisecond's). */
    private static final int NEW_NAME_ATTEMPTS_MAX = 1_000;

    private WalNames() {
    }

    /** The directory of the live log {@code walId}. */
    public static String liveDirectory(String walId) {
        return Dfs.join(LIVE_ROOT, walId);
    }

    /** The directory the log {@code walId} is moved to when its OTM is fenced. */
    public static String fencedDirectory(String walId) {
        return Dfs.join(FENCED_ROOT, walId);
    }

    /** The directory recovery reads the log {@code walId} from: the fenced one once a master moved it. */
    public static String recoveryDirectory(Dfs dfs, String walId) throws IOException {
        String fenced = fencedDirectory(walId);
        return dfs.exists(fenced) ? fenced : liveDirectory(walId);
    }

    /** The id of the OTM whose run wrote the log {@code walId}. */
    public static String otmIdOf(String walId) {
        int separator = walId.indexOf(SEPARATOR);
        return separator < 0 ? walId : walId.substring(0, separator);
    }

    /** True if the log {@code walId} was written by a run of the OTM {@code otmId}. */
    public static boolean belongsTo(String walId, String otmId) {
        return walId.equals(otmId) || (walId.length() > otmId.length() + 1 && walId.startsWith(otmId)
                && walId.charAt(otmId.length()) == SEPARATOR);
    }

    /**
     * A wal id for a new run of {@code otmId} that no log, live or fenced, has used: the OTM id and
     * the run's start time (UTC, to the millisecond), e.g. {@code otm-1@20261127T083612345Z}.
     *
     * @param clockMs wall-clock milliseconds; a name in use is followed by the next millisecond's
     * @throws IllegalArgumentException if {@code otmId} is empty or holds the separator
     * @throws IOException if the DFS fails, or if the names of many milliseconds on are all in use
     */
    public static String newWalId(Dfs dfs, String otmId, LongSupplier clockMs) throws IOException {
        if (otmId == null || otmId.isEmpty() || otmId.indexOf(SEPARATOR) >= 0) {
            throw new IllegalArgumentException("an OTM id must be non-empty and not contain '" + SEPARATOR + "', got '"
                    + otmId + "'");
        }
        long at = clockMs.getAsLong();
        for (int attempt = 0; attempt < NEW_NAME_ATTEMPTS_MAX; attempt++, at++) {
            String walId = otmId + SEPARATOR + RUN_TIME.format(Instant.ofEpochMilli(at));
            if (!dfs.exists(liveDirectory(walId)) && !dfs.exists(fencedDirectory(walId))) {
                return walId;
            }
        }
        throw new IOException("no unused log name for OTM " + otmId + " in the " + NEW_NAME_ATTEMPTS_MAX
                + " milliseconds from " + RUN_TIME.format(Instant.ofEpochMilli(at - NEW_NAME_ATTEMPTS_MAX)));
    }

    /**
     * The wal ids of every log written by runs of {@code otmId}, live or fenced, sorted.
     */
    public static List<String> logsOf(Dfs dfs, String otmId) throws IOException {
        TreeSet<String> ids = new TreeSet<>(logsUnder(dfs, LIVE_ROOT, otmId));
        ids.addAll(logsUnder(dfs, FENCED_ROOT, otmId));
        return new ArrayList<>(ids);
    }

    /** The wal ids of the live (unfenced) logs written by runs of {@code otmId}, sorted; a new list. */
    public static List<String> liveLogsOf(Dfs dfs, String otmId) throws IOException {
        return logsUnder(dfs, LIVE_ROOT, otmId);
    }

    private static List<String> logsUnder(Dfs dfs, String root, String otmId) throws IOException {
        TreeSet<String> ids = new TreeSet<>();
        for (String name : dfs.list(root)) {
            if (belongsTo(name, otmId)) {
                ids.add(name);
            }
        }
        return new ArrayList<>(ids);
    }
}

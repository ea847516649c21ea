package org.elastras.storage.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.util.ByteSource;
import org.elastras.storage.util.CorruptionException;

/**
 * Reads and atomically replaces a partition's {@link Manifest} on the DFS: a new manifest is
 * written to {@code MANIFEST-N.tmp}, synced, renamed to {@code MANIFEST-N} (a rename never
 * replaces, so two writers of the same N cannot both succeed), and only then are older
 * manifests deleted. A reader takes the highest complete {@code MANIFEST-N}.
 *
 * <p>Stateless; callers serialise writes of one directory.
 */
final class ManifestFiles {

    private static final Logger LOG = Logger.getLogger(ManifestFiles.class.getName());
    private static final String TMP_SUFFIX = ".tmp";
    /** Bound on a manifest's size when reading, so a corrupt length cannot exhaust memory. */
    private static final long MANIFEST_BYTES_MAX = 64L << 20;

    private ManifestFiles() {
    }

    /** The newest manifest in {@code directory}, or {@link Manifest#empty()} if there is none. */
    static Manifest readLatest(Dfs dfs, String directory) throws IOException {
        long best = -1;
        for (String name : dfs.list(directory)) {
            best = Math.max(best, Manifest.sequenceOf(name));
        }
        if (best < 0) {
            return Manifest.empty();
        }
        String path = Dfs.join(directory, Manifest.fileName(best));
        try (DfsFile file = dfs.open(path)) {
            long length = file.length();
            if (length > MANIFEST_BYTES_MAX) {
                throw new CorruptionException(path, 0, "manifest length " + length + " exceeds " + MANIFEST_BYTES_MAX);
            }
            byte[] bytes = file.readFully(0, (int) length);
            Manifest manifest;
            try {
                manifest = Manifest.decode(bytes);
            } catch (ByteSource.FormatException e) {
                throw new CorruptionException(path, 0, e.getMessage());
            }
            if (manifest.sequence() != best) {
                throw new CorruptionException(path, 0, "manifest records sequence " + manifest.sequence() + " but is named " + best);
            }
            return manifest;
        }
    }

    /** Writes {@code manifest} as the newest of {@code directory} and deletes the older ones. */
    static void write(Dfs dfs, String directory, Manifest manifest) throws IOException {
        String name = Manifest.fileName(manifest.sequence());
        String tmp = Dfs.join(directory, name + TMP_SUFFIX);
        dfs.delete(tmp);
        // Its name need not be durable: the rename below is, with the directory's every name
        // (the tables this manifest names, written there before it, included).
        try (DfsOutput out = dfs.createNamedLater(tmp)) {
            out.write(manifest.encode());
            out.sync();
        }
        dfs.rename(tmp, Dfs.join(directory, name));
        // From here on the new manifest is in force: a failure now must not be reported as a
        // failed write, or the caller would discard tables the manifest names. Older manifests
        // left behind are never read (the highest wins) and are deleted by the next open.
        try {
            for (String other : dfs.list(directory)) {
                long sequence = Manifest.sequenceOf(other);
                if (sequence >= 0 && sequence < manifest.sequence()) {
                    dfs.delete(Dfs.join(directory, other));
                }
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "manifest " + name + " of " + directory + " is written, but deleting older"
                    + " manifests failed; the next open deletes them", e);
        }
    }

    /** Files in {@code directory} that no manifest names: leftovers of a crash mid-flush or mid-write. */
    static List<String> orphans(Dfs dfs, String directory, Manifest manifest) throws IOException {
        List<String> live = new ArrayList<>();
        manifest.tables().forEach(t -> live.add(t.fileName()));
        List<String> orphans = new ArrayList<>();
        for (String name : dfs.list(directory)) {
            boolean isManifest = Manifest.sequenceOf(name) == manifest.sequence();
            if (!isManifest && !live.contains(name)) {
                orphans.add(name);
            }
        }
        return orphans;
    }
}

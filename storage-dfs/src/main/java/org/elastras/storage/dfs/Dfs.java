package org.elastras.storage.dfs;

import java.io.Closeable;
import java.io.IOException;
import java.net.URI;
import java.util.List;

/**
 * A distributed file system as ElasTraS uses it: append-only files under one root, positional
 * reads, atomic rename, and an output stream that can make its bytes visible ({@code flush}) or
 * durable ({@code sync}).
 *
 * <p>Implementations are thread-safe: any thread may call any method. A single {@link DfsOutput}
 * or {@link DfsFile} has its own threading contract. Paths are relative to the root the instance
 * was opened at, use {@code '/'} as separator, and must not contain {@code ".."} segments.
 *
 * <p>Open one with {@link #open(URI)}: {@code file:} selects {@link LocalDfs}, {@code hdfs:}
 * selects {@link HdfsDfs}. The in-memory {@link MemoryDfs} is constructed directly (tests only).
 */
public interface Dfs extends Closeable {

    /** The root this instance was opened at. */
    URI uri();

    /**
     * Creates a new file and opens it for appending. Missing parent directories are created. The
     * file's name is durable when this returns (its bytes once {@link DfsOutput#sync} returns).
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    DfsOutput create(String path) throws IOException;

    /**
     * Creates a new file as {@link #create} does, except that its name need not be durable yet: a
     * later {@link #rename} into the same directory makes it so, since a rename is durable together
     * with every name in its target's directory. For files that count only once such a rename
     * happened: a manifest's temporary file, and the tables the manifest renamed into place after
     * them names. On a local disk this saves a sync of the directory per file; elsewhere it is
     * {@link #create}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    default DfsOutput createNamedLater(String path) throws IOException {
        return create(path);
    }

    /**
     * Creates a new file for a log that is synced after every few appends, as {@link #create}
     * does, except that the output may allocate the file's space ahead of its appends: bytes past
     * {@link DfsOutput#position()} then read as zeros, and the file is longer than what was
     * written. On a local file system a sync of an append that grew the file also writes the
     * file's size and block map, a second device write; inside allocated space it writes only the
     * data. Elsewhere (HDFS) it is {@link #create}.
     *
     * @throws java.nio.file.FileAlreadyExistsException if the file exists
     */
    default DfsOutput createLog(String path) throws IOException {
        return create(path);
    }

    /**
     * Opens an existing file for positional reads.
     *
     * @throws java.io.FileNotFoundException if the file does not exist
     */
    DfsFile open(String path) throws IOException;

    /** Names (not paths) of the entries of a directory, sorted; empty if it does not exist. */
    List<String> list(String directory) throws IOException;

    boolean exists(String path) throws IOException;

    /** Length in bytes of a file; for a file still being written, at least the flushed length. */
    long length(String path) throws IOException;

    /**
     * Renames a file or directory. Fails if the target exists: a rename never replaces, so that
     * it stays atomic on every implementation (HDFS cannot atomically replace a file). Durable
     * when it returns, together with every other name in the target's directory.
     *
     * @throws java.nio.file.FileAlreadyExistsException if {@code target} exists
     * @throws java.io.FileNotFoundException if {@code source} does not exist
     */
    void rename(String source, String target) throws IOException;

    /** Deletes a file, or a directory with everything under it. Returns false if it was absent. */
    boolean delete(String path) throws IOException;

    void mkdirs(String directory) throws IOException;

    /**
     * Opens the DFS named by a URI.
     *
     * @throws IllegalArgumentException for a scheme that is not {@code file} or {@code hdfs}
     * @throws IOException if the file system cannot be reached
     */
    static Dfs open(URI uri) throws IOException {
        String scheme = uri.getScheme();
        if (scheme == null) {
            throw new IllegalArgumentException("DFS URI '" + uri + "' has no scheme:"
                    + " use file:/path for a local directory or hdfs://namenode:port/path for HDFS");
        }
        switch (scheme) {
            case "file":
                return LocalDfs.open(uri);
            case "hdfs":
                return HdfsDfs.open(uri);
            default:
                throw new IllegalArgumentException("unknown DFS scheme '" + scheme + "' in '" + uri
                        + "': use file:/path for a local directory or hdfs://namenode:port/path for HDFS");
        }
    }

    /** Joins path segments with '/'. */
    static String join(String first, String... rest) {
        StringBuilder sb = new StringBuilder(first);
        for (String part : rest) {
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '/') {
                sb.append('/');
            }
            sb.append(part);
        }
        return sb.toString();
    }
}

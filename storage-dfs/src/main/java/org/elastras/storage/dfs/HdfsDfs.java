package org.elastras.storage.dfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.client.HdfsDataInputStream;

/**
 * A {@link Dfs} on HDFS through the Hadoop {@link FileSystem} API: {@code flush} is
 * {@code hflush}, {@code sync} is {@code hsync}.
 *
 * <p>Thread-safe. Owns its {@link FileSystem} instance (never the shared cached one), so that
 * closing this closes only its own connections.
 */
public final class HdfsDfs implements Dfs {

    private final FileSystem fs;
    private final Path root;
    private final URI uri;

    private HdfsDfs(FileSystem fs, Path root, URI uri) {
        this.fs = fs;
        this.root = root;
        this.uri = uri;
    }

    /** Opens HDFS at an {@code hdfs://namenode:port/path} URI with fail-fast client settings. */
    public static HdfsDfs open(URI uri) throws IOException {
        Configuration conf = new Configuration();
        // Fail in seconds, not minutes, when the namenode is unreachable.
        conf.setInt("ipc.client.connect.max.retries", 2);
        conf.setInt("ipc.client.connect.max.retries.on.timeouts", 2);
        conf.setInt("ipc.client.connect.timeout", 5_000);
        configureWritePipelineRecovery(conf);
        return open(uri, conf);
    }

    /**
     * How a write pipeline recovers when one of its datanodes fails: the client asks for a
     * replacement where the policy wants one (DEFAULT: replication >= 3 and the pipeline lost
     * half its nodes, or the block was hflushed), and if none can be found it goes on writing to
     * the survivors (best effort) instead of failing the file. Without best effort, a cluster of
     * 3 datanodes with replication 3 has no spare node to add, so stopping one datanode fails
     * every open WAL segment ("Failed to replace a bad datanode on the existing pipeline") and
     * every OTM gives up its partitions. The price: records acknowledged after the loss sit on
     * fewer replicas until the namenode re-replicates the block.
     */
    public static void configureWritePipelineRecovery(Configuration conf) {
        conf.set("dfs.client.block.write.replace-datanode-on-failure.policy", "DEFAULT");
        conf.setBoolean("dfs.client.block.write.replace-datanode-on-failure.best-effort", true);
    }

    /** Opens HDFS at a URI with a caller-provided configuration (tests: a MiniDFSCluster's). */
    public static HdfsDfs open(URI uri, Configuration conf) throws IOException {
        if (!"hdfs".equals(uri.getScheme())) {
            throw new IllegalArgumentException("HdfsDfs needs an hdfs: URI, got '" + uri + "'");
        }
        if (uri.getAuthority() == null) {
            throw new IllegalArgumentException("HDFS URI '" + uri + "' names no namenode: use hdfs://host:port/path");
        }
        FileSystem fs;
        Path root = new Path(uri.getPath() == null || uri.getPath().isEmpty() ? "/" : uri.getPath());
        try {
            fs = FileSystem.newInstance(uri, conf);
        } catch (IOException e) {
            throw new IOException("cannot reach HDFS at " + uri + ": " + e.getMessage(), e);
        }
        try {
            fs.mkdirs(root);
        } catch (IOException e) {
            fs.close();
            throw new IOException("cannot reach HDFS at " + uri + " (mkdirs " + root + " failed): " + e.getMessage(), e);
        }
        return new HdfsDfs(fs, root, uri);
    }

    @Override
    public URI uri() {
        return uri;
    }

    /** The underlying file system, for operations outside this interface (lease recovery). */
    public FileSystem fileSystem() {
        return fs;
    }

    private Path resolve(String path) {
        String checked = DfsPaths.check(path);
        return checked.isEmpty() ? root : new Path(root, checked);
    }

    @Override
    public DfsOutput create(String path) throws IOException {
        Path file = resolve(path);
        try {
            return new HdfsOutput(fs.create(file, false));
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(file.toString(), null, "file exists on HDFS");
        }
    }

    @Override
    public DfsFile open(String path) throws IOException {
        Path file = resolve(path);
        try {
            return new HdfsFile(path, fs.open(file));
        } catch (FileNotFoundException e) {
            throw new FileNotFoundException("no such file on HDFS: " + file);
        }
    }

    @Override
    public List<String> list(String directory) throws IOException {
        FileStatus[] statuses;
        try {
            statuses = fs.listStatus(resolve(directory));
        } catch (FileNotFoundException e) {
            return List.of();
        }
        List<String> names = new ArrayList<>(statuses.length);
        for (FileStatus status : statuses) {
            names.add(status.getPath().getName());
        }
        names.sort(null);
        return names;
    }

    @Override
    public boolean exists(String path) throws IOException {
        return fs.exists(resolve(path));
    }

    @Override
    public long length(String path) throws IOException {
        try (DfsFile file = open(path)) {
            return file.length();
        }
    }

    @Override
    public void rename(String source, String target) throws IOException {
        Path from = resolve(source);
        Path to = resolve(target);
        if (!fs.exists(from)) {
            throw new FileNotFoundException("cannot rename " + from + ": it does not exist");
        }
        if (fs.exists(to)) {
            throw new FileAlreadyExistsException(to.toString(), null, "rename target exists");
        }
        fs.mkdirs(to.getParent());
        if (!fs.rename(from, to)) {
            throw new IOException("HDFS refused to rename " + from + " to " + to);
        }
    }

    @Override
    public boolean delete(String path) throws IOException {
        return fs.delete(resolve(path), true);
    }

    @Override
    public void mkdirs(String directory) throws IOException {
        if (!fs.mkdirs(resolve(directory))) {
            throw new IOException("HDFS refused to create directory " + resolve(directory));
        }
    }

    @Override
    public void close() throws IOException {
        fs.close();
    }

    @Override
    public String toString() {
        return "HdfsDfs[" + uri + "]";
    }

    private static final class HdfsOutput implements DfsOutput {
        private final FSDataOutputStream out;

        HdfsOutput(FSDataOutputStream out) {
            this.out = out;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            out.write(bytes, offset, length);
        }

        @Override
        public long position() {
            return out.getPos();
        }

        @Override
        public void flush() throws IOException {
            out.hflush();
        }

        @Override
        public void sync() throws IOException {
            out.hsync();
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    private static final class HdfsFile implements DfsFile {
        private final String path;
        private final FSDataInputStream in;

        HdfsFile(String path, FSDataInputStream in) {
            this.path = path;
            this.in = in;
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public long length() throws IOException {
            // For a file still being written, the visible length includes hflushed bytes of the
            // block under construction; the namenode's file length does not.
            if (in instanceof HdfsDataInputStream hdfsIn) {
                return hdfsIn.getVisibleLength();
            }
            throw new IllegalStateException("HDFS input stream of unexpected type " + in.getClass());
        }

        @Override
        public int read(long position, byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            return in.read(position, buffer, offset, length);
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}

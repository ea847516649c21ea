package org.elastras.storage.dfs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;

/**
 * A real in-process HDFS (MiniDFSCluster) for tests. {@link #shared()} is one 3-datanode cluster
 * per test JVM, started on first use (about 5 s) and stopped at JVM exit; tests that stop
 * datanodes start their own with {@link #start(int, Path)}.
 */
public final class MiniHdfs implements AutoCloseable {

    private static final Object SHARED_LOCK = new Object();
    private static MiniHdfs shared;

    private final MiniDFSCluster cluster;
    private final Configuration conf;
    private final AtomicInteger nextRoot = new AtomicInteger();

    private MiniHdfs(MiniDFSCluster cluster, Configuration conf) {
        this.cluster = cluster;
        this.conf = conf;
    }

    public static MiniHdfs start(int datanodes, Path baseDirectory) throws IOException {
        Configuration conf = new Configuration();
        conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, baseDirectory.toAbsolutePath().toString());
        conf.setInt("dfs.replication", Math.min(3, datanodes));
        conf.setInt("dfs.namenode.replication.min", 1);
        conf.setLong("dfs.blocksize", 16L << 20);
        // Small heartbeat intervals so that datanode loss is noticed within a test.
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setBoolean("dfs.permissions.enabled", false);
        MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(datanodes).format(true).build();
        cluster.waitActive();
        return new MiniHdfs(cluster, conf);
    }

    /** The JVM-wide 3-datanode cluster. */
    public static MiniHdfs shared() {
        synchronized (SHARED_LOCK) {
            if (shared == null) {
                try {
                    Path base = Paths.get("target", "minidfs-" + ProcessHandle.current().pid());
                    Files.createDirectories(base);
                    MiniHdfs started = start(3, base);
                    Runtime.getRuntime().addShutdownHook(new Thread(started::close, "minidfs-shutdown"));
                    shared = started;
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot start MiniDFSCluster", e);
                }
            }
            return shared;
        }
    }

    public MiniDFSCluster cluster() {
        return cluster;
    }

    public Configuration configuration() {
        return conf;
    }

    /** A Dfs rooted at a directory of its own on this cluster. */
    public HdfsDfs newDfs() throws IOException {
        URI base = cluster.getURI();
        URI uri = URI.create("hdfs://" + base.getAuthority() + "/elastras-test-" + nextRoot.incrementAndGet());
        return HdfsDfs.open(uri, new Configuration(conf));
    }

    @Override
    public void close() {
        cluster.shutdown(true);
    }
}

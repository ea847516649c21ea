package org.elastras.otm.server;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.dfs.ForwardingDfsOutput;
import org.elastras.storage.dfs.MemoryDfs;

/**
 * An in-memory DFS for tests that holds every file creation under one directory (set
 * {@link #gatedPrefix}) until {@link #release()}: a close or flush stuck on the DFS, on cue; and
 * that makes every sync take {@link #syncDelayMs} (a slow disk, on cue); it lists what was
 * created. Thread-safe.
 */
final class GatedDfs implements Dfs {

    private final MemoryDfs inner = new MemoryDfs();
    /** Paths starting with this wait for {@link #release()}; null: none. */
    volatile String gatedPrefix;
    /** How long each sync of a file takes from now on; 0: at once. */
    volatile long syncDelayMs;
    /** Every path created, in order. */
    final List<String> created = new CopyOnWriteArrayList<>();
    /** Counted down when a creation first waits. */
    final CountDownLatch blocked = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    @Override
    public URI uri() {
        return inner.uri();
    }

    @Override
    public DfsOutput create(String path) throws IOException {
        created.add(path);
        String prefix = gatedPrefix;
        if (prefix != null && path.startsWith(prefix)) {
            blocked.countDown();
            try {
                if (!released.await(30, TimeUnit.SECONDS)) {
                    throw new IOException("the test never released " + path);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        return new ForwardingDfsOutput(inner.create(path)) {
            @Override
            public void sync() throws IOException {
                long delay = syncDelayMs;
                if (delay > 0) {
                    try {
                        Thread.sleep(delay);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted", e);
                    }
                }
                super.sync();
            }
        };
    }

    @Override
    public DfsFile open(String path) throws IOException {
        return inner.open(path);
    }

    @Override
    public List<String> list(String directory) throws IOException {
        return inner.list(directory);
    }

    @Override
    public boolean exists(String path) throws IOException {
        return inner.exists(path);
    }

    @Override
    public long length(String path) throws IOException {
        return inner.length(path);
    }

    @Override
    public void rename(String source, String target) throws IOException {
        inner.rename(source, target);
    }

    @Override
    public boolean delete(String path) throws IOException {
        return inner.delete(path);
    }

    @Override
    public void mkdirs(String directory) throws IOException {
        inner.mkdirs(directory);
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }

    /** Lets every held and later creation through. */
    void release() {
        released.countDown();
    }
}

package org.elastras.storage.dfs;

import java.io.IOException;
import java.net.URI;
import java.util.List;

/**
 * A {@link Dfs} wrapper that injects the faults of a real disk and process, for tests: a disk
 * that fills up ({@link #setFreeBytes}), one mutating operation that fails and the next ones
 * that work ({@link #failOperation}), and a process that dies at an operation
 * ({@link #crashAtOperation}: that operation and every later one fail, as if nothing after it
 * ever ran; pair it with {@link MemoryDfs#crash()} to drop unsynced bytes too).
 *
 * <p>Mutating operations are counted from 0 in the order they reach this wrapper: create,
 * write, flush, sync and close of an output, rename, delete, mkdirs. Reads are never counted
 * and fail only after a crash. Thread-safe (one lock; tests only).
 */
public final class FaultInjectingDfs implements Dfs {

    /** The message a full disk gives, as the JDK reports ENOSPC. */
    public static final String NO_SPACE = "No space left on device";

    private final Dfs inner;
    private long operations;
    private long freeBytes = Long.MAX_VALUE;
    private long failAt = -1;
    private long crashAt = -1;
    private boolean crashed;
    private String crashedAtOperation;

    public FaultInjectingDfs(Dfs inner) {
        if (inner == null) {
            throw new IllegalArgumentException("inner DFS is required");
        }
        this.inner = inner;
    }

    /** Bytes that writes may still add; a write past them writes what fits and fails. */
    public synchronized void setFreeBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("free bytes must be >= 0, got " + bytes);
        }
        freeBytes = bytes;
    }

    /** Makes the free space unlimited again ("space returns"). */
    public synchronized void unlimitedSpace() {
        freeBytes = Long.MAX_VALUE;
    }

    /** Mutating operations counted so far. */
    public synchronized long operations() {
        return operations;
    }

    /** The mutating operation with this number (see {@link #operations()}) fails once. */
    public synchronized void failOperation(long number) {
        failAt = number;
    }

    /** The mutating operation with this number and every later operation fail. */
    public synchronized void crashAtOperation(long number) {
        crashAt = number;
    }

    public synchronized boolean crashed() {
        return crashed;
    }

    /** What the crash interrupted ("rename a -> b"), or null. */
    public synchronized String crashedAtOperation() {
        return crashedAtOperation;
    }

    /** Counts a mutating operation and fails it if a fault is set for it. */
    private synchronized void mutate(String what) throws IOException {
        checkNotCrashed(what);
        long number = operations++;
        if (number == crashAt) {
            crashed = true;
            crashedAtOperation = what;
            throw new IOException("process crashed (injected) at operation " + number + ": " + what);
        }
        if (number == failAt) {
            throw new IOException("I/O error (injected) at operation " + number + ": " + what);
        }
    }

    private synchronized void checkNotCrashed(String what) throws IOException {
        if (crashed) {
            throw new IOException("process crashed (injected) before " + what);
        }
    }

    @Override
    public URI uri() {
        return inner.uri();
    }

    @Override
    public DfsOutput create(String path) throws IOException {
        mutate("create " + path);
        return new Output(path, inner.create(path));
    }

    @Override
    public DfsOutput createNamedLater(String path) throws IOException {
        mutate("create (named later) " + path);
        return new Output(path, inner.createNamedLater(path));
    }

    @Override
    public DfsFile open(String path) throws IOException {
        checkNotCrashed("open " + path);
        return inner.open(path);
    }

    @Override
    public List<String> list(String directory) throws IOException {
        checkNotCrashed("list " + directory);
        return inner.list(directory);
    }

    @Override
    public boolean exists(String path) throws IOException {
        checkNotCrashed("exists " + path);
        return inner.exists(path);
    }

    @Override
    public long length(String path) throws IOException {
        checkNotCrashed("length " + path);
        return inner.length(path);
    }

    @Override
    public void rename(String source, String target) throws IOException {
        mutate("rename " + source + " -> " + target);
        inner.rename(source, target);
    }

    @Override
    public boolean delete(String path) throws IOException {
        mutate("delete " + path);
        return inner.delete(path);
    }

    @Override
    public void mkdirs(String directory) throws IOException {
        mutate("mkdirs " + directory);
        inner.mkdirs(directory);
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }

    @Override
    public String toString() {
        return "FaultInjectingDfs[" + inner + "]";
    }

    private final class Output implements DfsOutput {
        private final String path;
        private final DfsOutput out;

        Output(String path, DfsOutput out) {
            this.path = path;
            this.out = out;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            int fits;
            synchronized (FaultInjectingDfs.this) {
                mutate("write " + length + " bytes to " + path);
                fits = (int) Math.min(length, freeBytes);
                if (freeBytes != Long.MAX_VALUE) {
                    freeBytes -= fits;
                }
            }
            out.write(bytes, offset, fits);
            if (fits < length) {
                throw new IOException(NO_SPACE + " (injected: wrote " + fits + " of " + length + " bytes to " + path + ")");
            }
        }

        @Override
        public long position() {
            return out.position();
        }

        @Override
        public void flush() throws IOException {
            mutate("flush " + path);
            out.flush();
        }

        @Override
        public void sync() throws IOException {
            mutate("sync " + path);
            out.sync();
        }

        @Override
        public void close() throws IOException {
            mutate("close " + path);
            out.close();
        }
    }
}

package org.elastras.storage.dfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An in-memory {@link Dfs} for unit tests, with two faults a real disk has: {@link #crash()}
 * loses every byte not yet synced (and every name not yet durable), and {@link #failWrites(boolean)} makes writes and syncs fail
 * as a full disk would.
 *
 * <p>Thread-safe: every operation holds the instance lock (tests only; not built for speed).
 */
public final class MemoryDfs implements Dfs {

    private final Map<String, MemFile> files = new TreeMap<>();
    private boolean failWrites;

    private static final class MemFile {
        byte[] data = new byte[256];
        int length;
        int syncedLength;
        /** False for a file made by {@link #createNamedLater} until a rename into its directory. */
        boolean nameDurable = true;
    }

    @Override
    public URI uri() {
        return URI.create("mem:/");
    }

    /** Makes every following write and sync fail with an IOException (true) or work (false). */
    public synchronized void failWrites(boolean fail) {
        this.failWrites = fail;
    }

    /**
     * Simulates a machine crash: every file keeps only the bytes that were synced, and a file
     * created by {@link #createNamedLater} that no rename into its directory made durable since
     * is gone.
     */
    public synchronized void crash() {
        files.values().removeIf(f -> !f.nameDurable);
        for (MemFile f : files.values()) {
            f.length = f.syncedLength;
        }
    }

    /** Overwrites one byte of a file in place (tests of corruption detection). */
    public synchronized void corrupt(String path, long position, byte value) throws IOException {
        MemFile f = file(DfsPaths.check(path));
        if (position >= f.length) {
            throw new IllegalArgumentException("position " + position + " past end " + f.length);
        }
        f.data[(int) position] = value;
    }

    private MemFile file(String checked) throws FileNotFoundException {
        MemFile f = files.get(checked);
        if (f == null) {
            throw new FileNotFoundException("no such file on the memory DFS: " + checked);
        }
        return f;
    }

    @Override
    public synchronized DfsOutput create(String path) throws IOException {
        return create(path, true);
    }

    /** Its name is lost by a {@link #crash} until a rename into its directory. */
    @Override
    public synchronized DfsOutput createNamedLater(String path) throws IOException {
        return create(path, false);
    }

    private DfsOutput create(String path, boolean nameDurable) throws IOException {
        String checked = DfsPaths.check(path);
        if (files.containsKey(checked)) {
            throw new FileAlreadyExistsException(checked);
        }
        if (failWrites) {
            throw new IOException("memory DFS: no space left (injected)");
        }
        MemFile f = new MemFile();
        f.nameDurable = nameDurable;
        files.put(checked, f);
        return new MemOutput(f);
    }

    @Override
    public synchronized DfsFile open(String path) throws IOException {
        String checked = DfsPaths.check(path);
        MemFile f = file(checked);
        return new MemInput(path, f);
    }

    @Override
    public synchronized List<String> list(String directory) {
        String prefix = DfsPaths.check(directory);
        prefix = prefix.isEmpty() ? "" : prefix + "/";
        List<String> names = new ArrayList<>();
        for (String p : files.keySet()) {
            if (p.startsWith(prefix)) {
                String rest = p.substring(prefix.length());
                int slash = rest.indexOf('/');
                String name = slash < 0 ? rest : rest.substring(0, slash);
                if (names.isEmpty() || !names.get(names.size() - 1).equals(name)) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    @Override
    public synchronized boolean exists(String path) {
        String checked = DfsPaths.check(path);
        if (files.containsKey(checked)) {
            return true;
        }
        String prefix = checked + "/";
        for (String p : files.keySet()) {
            if (p.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized long length(String path) throws IOException {
        return file(DfsPaths.check(path)).length;
    }

    @Override
    public synchronized void rename(String source, String target) throws IOException {
        String from = DfsPaths.check(source);
        String to = DfsPaths.check(target);
        if (!exists(from)) {
            throw new FileNotFoundException("cannot rename " + from + ": it does not exist");
        }
        if (exists(to)) {
            throw new FileAlreadyExistsException(to);
        }
        Map<String, MemFile> moved = new TreeMap<>();
        for (var it = files.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey().equals(from) || e.getKey().startsWith(from + "/")) {
                moved.put(to + e.getKey().substring(from.length()), e.getValue());
                it.remove();
            }
        }
        files.putAll(moved);
        // Durable with every name in the target's directory (as a local disk's directory sync).
        int slash = to.lastIndexOf('/');
        String directory = slash < 0 ? "" : to.substring(0, slash + 1);
        for (var e : files.entrySet()) {
            if (e.getKey().startsWith(directory) && e.getKey().indexOf('/', directory.length()) < 0) {
                e.getValue().nameDurable = true;
            }
        }
        moved.values().forEach(f -> f.nameDurable = true);
    }

    @Override
    public synchronized boolean delete(String path) {
        String checked = DfsPaths.check(path);
        boolean removed = files.remove(checked) != null;
        removed |= files.keySet().removeIf(p -> p.startsWith(checked + "/"));
        return removed;
    }

    @Override
    public void mkdirs(String directory) {
        DfsPaths.check(directory);
    }

    @Override
    public void close() {
    }

    private final class MemOutput implements DfsOutput {
        private final MemFile f;
        private long position;
        private boolean closed;

        MemOutput(MemFile f) {
            this.f = f;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            synchronized (MemoryDfs.this) {
                if (closed) {
                    throw new IOException("DFS output is closed");
                }
                if (failWrites) {
                    throw new IOException("memory DFS: no space left (injected)");
                }
                if (f.length + length > f.data.length) {
                    f.data = Arrays.copyOf(f.data, Math.max(f.data.length * 2, f.length + length));
                }
                System.arraycopy(bytes, offset, f.data, f.length, length);
                f.length += length;
                position += length;
            }
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public void flush() throws IOException {
            synchronized (MemoryDfs.this) {
                if (failWrites) {
                    throw new IOException("memory DFS: no space left (injected)");
                }
            }
        }

        @Override
        public void sync() throws IOException {
            synchronized (MemoryDfs.this) {
                if (failWrites) {
                    throw new IOException("memory DFS: no space left (injected)");
                }
                f.syncedLength = f.length;
            }
        }

        @Override
        public void close() {
            synchronized (MemoryDfs.this) {
                closed = true;
            }
        }
    }

    private final class MemInput implements DfsFile {
        private final String path;
        private final MemFile f;

        MemInput(String path, MemFile f) {
            this.path = path;
            this.f = f;
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public long length() {
            synchronized (MemoryDfs.this) {
                return f.length;
            }
        }

        @Override
        public int read(long position, byte[] buffer, int offset, int length) {
            synchronized (MemoryDfs.this) {
                if (position >= f.length) {
                    return length == 0 ? 0 : -1;
                }
                int n = (int) Math.min(length, f.length - position);
                System.arraycopy(f.data, (int) position, buffer, offset, n);
                return n;
            }
        }

        @Override
        public void close() {
        }
    }
}

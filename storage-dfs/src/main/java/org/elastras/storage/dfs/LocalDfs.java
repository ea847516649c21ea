package org.elastras.storage.dfs;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A {@link Dfs} on a local directory: the embedded default. {@link DfsOutput#sync()} is
 * {@code FileChannel.force}, and creating or renaming a file also forces its directory, so that
 * the name survives a machine crash as well as the bytes.
 *
 * <p>Thread-safe.
 */
public final class LocalDfs implements Dfs {

    /** Bytes buffered in a {@link DfsOutput} before a write reaches the OS. */
    private static final int OUTPUT_BUFFER_BYTES = 64 * 1024;
    /**
     * How far ahead of its appends a log's file is allocated ({@link #createLog}). A file grows by
     * this much at a time, so one sync in every this many bytes also writes the file's size and
     * block map (and these zeros); the others write only their data.
     */
    static final long LOG_ALLOCATION_BYTES = 1 << 20;
    /** Zeros for allocating log space; shared read-only, each user takes a duplicate. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(OUTPUT_BUFFER_BYTES).asReadOnlyBuffer();

    private final Path root;

    private LocalDfs(Path root) {
        this.root = root;
    }

    /** Opens (creating if needed) the directory named by a {@code file:} URI. */
    public static LocalDfs open(URI uri) throws IOException {
        if (!"file".equals(uri.getScheme())) {
            throw new IllegalArgumentException("LocalDfs needs a file: URI, got '" + uri + "'");
        }
        return open(Paths.get(uri));
    }

    public static LocalDfs open(Path directory) throws IOException {
        Path root = directory.toAbsolutePath().normalize();
        try {
            Files.createDirectories(root);
        } catch (IOException e) {
            throw new IOException("cannot create or open the local DFS directory " + root + ": " + e, e);
        }
        if (!Files.isWritable(root)) {
            throw new IOException("local DFS directory " + root + " is not writable");
        }
        return new LocalDfs(root);
    }

    @Override
    public URI uri() {
        return root.toUri();
    }

    private Path resolve(String path) {
        String checked = DfsPaths.check(path);
        return checked.isEmpty() ? root : root.resolve(checked);
    }

    @Override
    public DfsOutput create(String path) throws IOException {
        return create(path, true, 0);
    }

    /** The name's durability waits for a rename into its directory, which syncs the directory. */
    @Override
    public DfsOutput createNamedLater(String path) throws IOException {
        return create(path, false, 0);
    }

    /** A log's file is allocated ahead of its appends, {@link #LOG_ALLOCATION_BYTES} at a time, by writing zeros. */
    @Override
    public DfsOutput createLog(String path) throws IOException {
        return create(path, true, LOG_ALLOCATION_BYTES);
    }

    /** @param allocationBytes how far ahead of its appends the file is allocated; 0: it grows with them */
    private DfsOutput create(String path, boolean syncName, long allocationBytes) throws IOException {
        Path file = resolve(path);
        Files.createDirectories(file.getParent());
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        if (syncName) {
            forceDirectory(file.getParent());
        }
        return new LocalOutput(channel, allocationBytes);
    }

    @Override
    public DfsFile open(String path) throws IOException {
        Path file = resolve(path);
        try {
            return new LocalFile(path, FileChannel.open(file, StandardOpenOption.READ));
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException("no such file on the local DFS: " + file);
        }
    }

    @Override
    public List<String> list(String directory) throws IOException {
        Path dir = resolve(directory);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        names.sort(Comparator.naturalOrder());
        return names;
    }

    @Override
    public boolean exists(String path) {
        return Files.exists(resolve(path));
    }

    @Override
    public long length(String path) throws IOException {
        try {
            return Files.size(resolve(path));
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException("no such file on the local DFS: " + resolve(path));
        }
    }

    @Override
    public void rename(String source, String target) throws IOException {
        Path from = resolve(source);
        Path to = resolve(target);
        if (!Files.exists(from)) {
            throw new FileNotFoundException("cannot rename " + from + ": it does not exist");
        }
        if (Files.exists(to)) {
            throw new FileAlreadyExistsException(to.toString(), null, "rename target exists");
        }
        Files.createDirectories(to.getParent());
        Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(to.getParent());
        if (!from.getParent().equals(to.getParent())) {
            forceDirectory(from.getParent());
        }
    }

    @Override
    public boolean delete(String path) throws IOException {
        Path target = resolve(path);
        if (!Files.exists(target)) {
            return false;
        }
        if (Files.isDirectory(target)) {
            try (Stream<Path> walk = Files.walk(target)) {
                List<Path> all = new ArrayList<>(walk.toList());
                all.sort(Comparator.reverseOrder());
                for (Path p : all) {
                    Files.deleteIfExists(p);
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        } else {
            Files.deleteIfExists(target);
        }
        return true;
    }

    @Override
    public void mkdirs(String directory) throws IOException {
        Files.createDirectories(resolve(directory));
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "LocalDfs[" + root + "]";
    }

    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        }
    }

    /**
     * Buffered append to a {@link FileChannel}; for a log, the file is first extended with zeros
     * {@code allocationBytes} at a time, so that appends overwrite allocated space (the zeros
     * become durable with the next sync, together with the file's new size). Single writer thread.
     */
    private static final class LocalOutput implements DfsOutput {
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocateDirect(OUTPUT_BUFFER_BYTES);
        /** 0: the file grows with its appends. */
        private final long allocationBytes;
        private long position;
        /** Bytes handed to the channel. */
        private long drained;
        /** How long the file is: what was drained, and the zeros after it. */
        private long allocatedEnd;
        private boolean closed;

        LocalOutput(FileChannel channel, long allocationBytes) {
            this.channel = channel;
            this.allocationBytes = allocationBytes;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            checkOpen();
            int done = 0;
            while (done < length) {
                if (!buffer.hasRemaining()) {
                    drain();
                }
                int n = Math.min(buffer.remaining(), length - done);
                buffer.put(bytes, offset + done, n);
                done += n;
            }
            position += length;
        }

        private void drain() throws IOException {
            buffer.flip();
            int bytes = buffer.remaining();
            if (allocationBytes > 0 && drained + bytes > allocatedEnd) {
                allocate(drained + bytes + allocationBytes);
            }
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            drained += bytes;
            buffer.clear();
        }

        /** Writes zeros from the file's end to {@code end}; the channel's position stays where the appends are. */
        private void allocate(long end) throws IOException {
            ByteBuffer zeros = ZEROS.duplicate();
            long at = allocatedEnd;
            while (at < end) {
                zeros.clear();
                zeros.limit((int) Math.min(zeros.capacity(), end - at));
                at += channel.write(zeros, at);
            }
            allocatedEnd = end;
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public void flush() throws IOException {
            checkOpen();
            drain();
        }

        @Override
        public void sync() throws IOException {
            flush();
            channel.force(false);
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            try {
                drain();
            } finally {
                closed = true;
                channel.close();
            }
        }

        private void checkOpen() throws IOException {
            if (closed) {
                throw new IOException("DFS output is closed");
            }
        }
    }

    /** Positional reads from a {@link FileChannel}; thread-safe. */
    private static final class LocalFile implements DfsFile {
        private final String path;
        private final FileChannel channel;

        LocalFile(String path, FileChannel channel) {
            this.path = path;
            this.channel = channel;
        }

        @Override
        public String path() {
            return path;
        }

        @Override
        public long length() throws IOException {
            return channel.size();
        }

        @Override
        public int read(long position, byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            return channel.read(ByteBuffer.wrap(buffer, offset, length), position);
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}

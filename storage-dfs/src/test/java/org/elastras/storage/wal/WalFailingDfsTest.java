package org.elastras.storage.wal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.elastras.storage.dfs.Dfs;
import org.elastras.storage.dfs.DfsFile;
import org.elastras.storage.dfs.DfsOutput;
import org.elastras.storage.dfs.ForwardingDfsOutput;
import org.elastras.storage.dfs.MemoryDfs;
import org.junit.jupiter.api.Test;

/**
 * A DFS that fails a write or sync kills the writer: every pending and later append fails with
 * the cause, and nothing hangs. A DFS that stalls fills the bounded queue, and append then fails
 * after its bounded wait.
 */
class WalFailingDfsTest {

    private static boolean causedByInjectedFault(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof IOException && String.valueOf(c.getMessage()).contains("(injected)")) {
                return true;
            }
        }
        return false;
    }

    @Test
    void aFailedSyncFailsPendingAndLaterAppendsWithTheCauseAndDoesNotHang() throws Exception {
        MemoryDfs dfs = new MemoryDfs();
        WalWriter writer = WalWriter.open(dfs, "wal", WalOptions.DEFAULT);
        WalPosition before = writer.append(WalTesting.tagged(1, "before", 10)).get(10, TimeUnit.SECONDS);

        dfs.failWrites(true);
        List<CompletableFuture<WalPosition>> pending = new ArrayList<>();
        List<Throwable> refused = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            try {
                pending.add(writer.append(WalTesting.tagged(1, "during" + i, 10)));
            } catch (IllegalStateException e) {
                refused.add(e);
            }
        }
        assertTrue(!pending.isEmpty(), "the first append after the fault is queued");
        for (CompletableFuture<WalPosition> future : pending) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
            assertTrue(causedByInjectedFault(e), "fails with the DFS error as cause: " + e);
        }
        for (Throwable e : refused) {
            assertTrue(causedByInjectedFault(e), "refused with the DFS error as cause: " + e);
        }
        dfs.failWrites(false);
        IllegalStateException later = assertThrows(IllegalStateException.class,
                () -> writer.append(WalTesting.tagged(1, "after", 10)));
        assertTrue(causedByInjectedFault(later), later.toString());
        IOException closed = assertThrows(IOException.class, writer::close);
        assertTrue(causedByInjectedFault(closed), closed.toString());

        // What was acknowledged before the fault is still in the log.
        List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
        assertEquals(before, replayed.get(0).position());
        assertEquals("before", WalTesting.tagOf(replayed.get(0).record()));
    }

    @Test
    void aFullQueueBlocksAppendForTheBoundedWaitThenRefusesIt() throws Exception {
        StallingDfs dfs = new StallingDfs(new MemoryDfs());
        WalOptions options = WalOptions.DEFAULT.withQueue(2, 1 << 20, 200);
        try (WalWriter writer = WalWriter.open(dfs, "wal", options)) {
            dfs.stallSyncs();
            CompletableFuture<WalPosition> first = writer.append(WalTesting.tagged(1, "first", 10));
            assertTrue(dfs.syncEntered.await(10, TimeUnit.SECONDS), "writer thread took the first record");
            CompletableFuture<WalPosition> second = writer.append(WalTesting.tagged(1, "second", 10));
            CompletableFuture<WalPosition> third = writer.append(WalTesting.tagged(1, "third", 10));
            RejectedExecutionException full = assertThrows(RejectedExecutionException.class,
                    () -> writer.append(WalTesting.tagged(1, "fourth", 10)));
            assertTrue(full.getMessage().contains("queueRecordsMax=2"), full.getMessage());
            assertTrue(!first.isDone() && !second.isDone() && !third.isDone(), "nothing acknowledged before sync");
            dfs.release.countDown();
            first.get(10, TimeUnit.SECONDS);
            second.get(10, TimeUnit.SECONDS);
            third.get(10, TimeUnit.SECONDS);
        }
        List<WalEntry> replayed = WalReader.readAll(dfs, "wal", WalPosition.START);
        assertEquals(List.of("first", "second", "third"),
                replayed.stream().map(e -> WalTesting.tagOf(e.record())).toList());
    }

    /** A Dfs whose output syncs block, once stalled, until released. */
    private static final class StallingDfs implements Dfs {
        final Dfs inner;
        final CountDownLatch syncEntered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean stalled;

        StallingDfs(Dfs inner) {
            this.inner = inner;
        }

        void stallSyncs() {
            stalled = true;
        }

        @Override
        public URI uri() {
            return inner.uri();
        }

        @Override
        public DfsOutput create(String path) throws IOException {
            return new ForwardingDfsOutput(inner.create(path)) {
                @Override
                public void sync() throws IOException {
                    if (stalled) {
                        syncEntered.countDown();
                        try {
                            if (!release.await(30, TimeUnit.SECONDS)) {
                                throw new IOException("test never released the stalled sync");
                            }
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException("interrupted in a stalled sync", e);
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
    }
}

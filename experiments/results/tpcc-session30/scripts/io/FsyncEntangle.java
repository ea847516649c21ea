import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/** Does a big file's fsync stall small fsyncs of another file on the same ext4 disk? */
public class FsyncEntangle {
    public static void main(String[] a) throws Exception {
        Path dir = Path.of(a[0]);
        int bigMb = Integer.parseInt(a[1]);
        int chunkMb = Integer.parseInt(a[2]); // 0: one fsync at the end; else fsync every chunk
        Files.createDirectories(dir);
        FileChannel wal = FileChannel.open(dir.resolve("wal"), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        List<long[]> lat = Collections.synchronizedList(new ArrayList<>());
        Thread t = new Thread(() -> {
            ByteBuffer rec = ByteBuffer.allocate(200);
            try {
                while (!STOP.get()) {
                    rec.clear();
                    long s = System.nanoTime();
                    wal.write(rec);
                    wal.force(false);
                    lat.add(new long[] {s, System.nanoTime() - s});
                    Thread.sleep(0, 300_000);
                }
            } catch (Exception e) { throw new RuntimeException(e); }
        });
        t.start();
        // A baseline of small syncs before the first big file.
        awaitUpTo(10_000, () -> lat.size() >= 100);
        for (int round = 0; round < 3; round++) {
            long bs = System.nanoTime();
            try (FileChannel big = FileChannel.open(dir.resolve("big" + round), StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buf = ByteBuffer.allocate(64 * 1024);
                new Random(round).nextBytes(buf.array());
                long written = 0;
                for (int i = 0; i < bigMb * 16; i++) {
                    buf.clear();
                    big.write(buf);
                    written += 64 * 1024;
                    if (chunkMb > 0 && written % ((long) chunkMb << 20) == 0) big.force(false);
                }
                big.force(false);
            }
            long be = System.nanoTime();
            // The "after" window is [be + 0.3 s, be + 1 s): wait until a sync began past its end.
            awaitUpTo(10_000, () -> {
                synchronized (lat) {
                    return !lat.isEmpty() && lat.get(lat.size() - 1)[0] >= be + 1_000_000_000L;
                }
            });
            List<long[]> seen;
            synchronized (lat) {
                seen = new ArrayList<>(lat);
            }
            long[] during = seen.stream().filter(x -> x[0] >= bs && x[0] < be).mapToLong(x -> x[1] / 1000).sorted().toArray();
            long[] after = seen.stream().filter(x -> x[0] >= be + 300_000_000L && x[0] < be + 1_000_000_000L).mapToLong(x -> x[1] / 1000).sorted().toArray();
            System.out.printf("big %d MB chunk %d MB: %d ms; wal syncs during: n=%d p50=%d p99=%d max=%d us; after: n=%d p50=%d p99=%d max=%d us%n",
                bigMb, chunkMb, (be - bs) / 1_000_000, during.length, during[during.length / 2], during[(int) (during.length * 0.99)], during[during.length - 1],
                after.length, after[after.length / 2], after[(int) (after.length * 0.99)], after[after.length - 1]);
        }
        STOP.set(true);
        t.join();
    }

    private static final AtomicBoolean STOP = new AtomicBoolean();

    /** Waits until {@code condition} holds, checking every millisecond; fails after {@code ms}. */
    private static void awaitUpTo(long ms, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + ms * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the small syncs stalled for " + ms + " ms");
            }
            Thread.sleep(1);
        }
    }
}

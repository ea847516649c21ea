package org.elastras.experiments.tpcc;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Loads the initial database of {@link TpccDataGenerator} into a {@link TpccTarget}: ITEM first,
 * then the warehouses in parallel, one warehouse per task on a bounded pool, each task writing its
 * rows in batches of at most {@link TpccTarget#loadBatchRowsMax()} rows of one table, one
 * transaction per batch. Reports progress through a callback and the rate at the end. Used from
 * one thread; it runs its own pool.
 */
public final class TpccLoader {

    /** Writes batches of rows of one table, each batch as one transaction. Used by one loading thread. */
    public interface BatchWriter extends AutoCloseable {
        void write(String table, List<List<Object>> rows) throws Exception;

        @Override
        void close() throws Exception;
    }

    /** Told after every batch; called from loading threads, so it must be thread-safe. */
    @FunctionalInterface
    public interface Progress {
        void rowsLoaded(long rowsSoFar, long rowsExpected);
    }

    /** What a load did. Immutable. */
    public record Report(long rows, double seconds, int threads) {

        public double rowsPerSecond() {
            return seconds == 0 ? 0 : rows / seconds;
        }
    }

    public static final int THREADS_MAX = 64;

    private final TpccDataGenerator generator;
    private final int threads;

    public TpccLoader(TpccDataGenerator generator, int threads) {
        if (threads < 1 || threads > THREADS_MAX) {
            throw new IllegalArgumentException("loader threads must be 1.." + THREADS_MAX + ", got " + threads);
        }
        this.generator = generator;
        this.threads = threads;
    }

    public Report load(TpccTarget target, Progress progress) throws Exception {
        int warehouses = generator.scale().warehouses();
        long expected = generator.scale().items() + warehouses * generator.rowsPerWarehouseEstimate();
        AtomicLong loaded = new AtomicLong();
        long startNanos = System.nanoTime();
        List<List<Object>> items = generator.items();
        target.loadItems(items);
        loaded(items.size(), loaded, expected, progress);
        int poolSize = Math.min(threads, warehouses);
        ExecutorService pool = Executors.newFixedThreadPool(poolSize);
        try {
            List<Future<?>> tasks = new ArrayList<>();
            for (int w = 1; w <= warehouses; w++) {
                int warehouse = w;
                tasks.add(pool.submit(() -> {
                    loadWarehouse(target, warehouse, loaded, expected, progress);
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get();
            }
        } finally {
            pool.shutdownNow();
        }
        return new Report(loaded.get(), (System.nanoTime() - startNanos) / 1e9, poolSize);
    }

    /**
     * Counts {@code rows} loaded and reports the new total. The count and the report are one step,
     * so that the totals reach {@code progress} in increasing order from every loader thread (the
     * last report is the whole load).
     */
    private static void loaded(int rows, AtomicLong loaded, long expected, Progress progress) {
        synchronized (loaded) {
            progress.rowsLoaded(loaded.addAndGet(rows), expected);
        }
    }

    private void loadWarehouse(TpccTarget target, int w, AtomicLong loaded, long expected, Progress progress) throws Exception {
        int batchMax = target.loadBatchRowsMax();
        Map<String, List<List<Object>>> pending = new HashMap<>();
        try (BatchWriter writer = target.openBatchWriter()) {
            generator.warehouse(w, (table, row) -> {
                List<List<Object>> batch = pending.computeIfAbsent(table, t -> new ArrayList<>(batchMax));
                batch.add(row);
                if (batch.size() == batchMax) {
                    writer.write(table, batch);
                    loaded(batch.size(), loaded, expected, progress);
                    batch.clear();
                }
            });
            // Tables in schema order, so that a district's rows are all in before its index rows matter.
            for (String table : TpccSchema.TABLES) {
                List<List<Object>> batch = pending.get(table);
                if (batch != null && !batch.isEmpty()) {
                    writer.write(table, batch);
                    loaded(batch.size(), loaded, expected, progress);
                }
            }
        }
    }

    /**
     * The arguments of procedure {@code loadRows} for a batch of one warehouse's rows (the
     * warehouse id is each row's first value): the table, then the rows.
     *
     * @throws IllegalArgumentException if the rows belong to several warehouses
     */
    static List<Object> loadRowsArguments(String table, List<List<Object>> rows) {
        Object w = rows.get(0).get(0);
        List<Object> args = new java.util.ArrayList<>(rows.size() + 1);
        args.add(table);
        for (List<Object> row : rows) {
            if (!row.get(0).equals(w)) {
                throw new IllegalArgumentException("a load batch must hold rows of one warehouse");
            }
            args.add(row);
        }
        return args;
    }
}

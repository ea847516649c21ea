package org.elastras.experiments.tpcc;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.elastras.client.protocol.ElasTrasException;

/**
 * A closed-loop TPC-C driver: {@code terminalsPerWarehouse} terminals per warehouse, terminal i of
 * warehouse w bound to district (i mod 10) + 1, each on its own thread and {@link TpccTarget.Session},
 * running one transaction after another from the 45/43/4/4/4 deck ({@link TransactionMix}) with
 * inputs from its own {@link TpccInputGenerator}, with no keying or think time (so this is not a
 * spec-compliant run: clause 5.2.5 requires them; a closed loop without them measures the
 * database's capacity). A warm-up, then a measured period; only transactions that start and end
 * inside it are counted. Used by one thread, one run at a time; the terminal threads are its own.
 */
public final class TpccDriver {

    /** Longest latency the histograms hold: one minute, in microseconds. */
    private static final long LATENCY_MICROS_MAX = 60_000_000L;
    /** Distinct failure reasons kept by name; more are counted as "other". */
    private static final int REASONS_MAX = 32;
    public static final int TERMINALS_PER_WAREHOUSE_MAX = 100;
    /** The CPU split's name for the JVM the terminals run in. */
    public static final String BENCHMARK_JVM = "benchmark JVM";

    private final TpccScale scale;
    private final NuRandConstants run;
    private final long seed;
    private final RemoteWarehouses remote;
    private final LongSupplier clockMicros;
    /** Each terminal starts a transaction at most this often (nanoseconds); 0: closed loop, no pause. */
    private volatile long terminalIntervalNanos;
    /** How far behind its schedule a paced terminal may fall and still catch up (see {@link #paceTerminals}). */
    static final long PACING_BACKLOG_NANOS = 1_000_000_000L;

    /**
     * @param run the run-time NURand constants, from the load's ({@link NuRandConstants#forRun})
     * @param remote whether the terminals keep remote warehouse choices (the spec) or make them local
     * @param clockMicros the clock for O_ENTRY_D, H_DATE and OL_DELIVERY_D
     */
    public TpccDriver(TpccScale scale, NuRandConstants run, long seed, RemoteWarehouses remote, LongSupplier clockMicros) {
        this.scale = scale;
        this.run = run;
        this.seed = seed;
        this.remote = java.util.Objects.requireNonNull(remote, "remote");
        this.clockMicros = clockMicros;
    }

    /**
     * Paces every terminal at {@code transactionsPerSecond} at most (a given load below the
     * target's capacity, as {@code elastras local} and the live-move experiment's {@code --rate}
     * run); 0 or less: closed loop (the benchmark's default). Not the spec's keying and think
     * times: a fixed interval between the starts of a terminal's transactions. A transaction that
     * starts late because the ones before it ran long is timed from when it was due (up to
     * {@link #PACING_BACKLOG_NANOS} late: a terminal further behind skips the starts it missed), so
     * a stall shows in the latency of the transactions it delayed, not only of those it caught.
     */
    public void paceTerminals(double transactionsPerSecond) {
        terminalIntervalNanos = transactionsPerSecond <= 0 ? 0 : (long) (1e9 / transactionsPerSecond);
    }

    /**
     * The remote warehouse accesses of the measured period's committed transactions. Immutable.
     *
     * @param mode whether remote choices were kept or made local
     * @param newOrderLines committed New-Order lines supplied by another warehouse
     * @param newOrders committed New-Orders with at least one such line
     * @param payments committed Payments for a customer of another warehouse
     * @param choicesMadeLocal remote choices the terminals drew and made local over the whole run
     *     (warm-up included; 0 unless the mode is {@link RemoteWarehouses#ALL_LOCAL})
     * @param newOrderLatency the latency of the committed New-Orders with a remote line against the others'
     * @param paymentLatency the latency of the Payments for another warehouse's customer against the others'
     */
    public record RemoteAccesses(RemoteWarehouses mode, long newOrderLines, long newOrders, long payments, long choicesMadeLocal,
            LocalAndRemote newOrderLatency, LocalAndRemote paymentLatency) {
    }

    /**
     * One type's measured latency split by whether the transaction touched another warehouse (so
     * another partition, when warehouses are partitioned one by one): which of them the type's tail
     * is made of. Immutable; microseconds, 0 where none was measured.
     */
    public record LocalAndRemote(long localCount, long localP50, long localP99, long remoteCount, long remoteP50, long remoteP99) {

        static LocalAndRemote of(Histogram local, Histogram remote) {
            return new LocalAndRemote(local.getTotalCount(), local.getValueAtPercentile(50), local.getValueAtPercentile(99),
                    remote.getTotalCount(), remote.getValueAtPercentile(50), remote.getValueAtPercentile(99));
        }
    }

    /** What one type of transaction did in the measured period. Immutable. */
    public record TypeResult(TransactionType type, long completed, long rolledBack, long failed, long retries,
            long latencyMicrosP50, long latencyMicrosP90, long latencyMicrosP99, long latencyMicrosMax, double latencyMicrosMean) {
    }

    /**
     * What a run measured. Immutable.
     *
     * @param districts the New-Order cross-check: sum(D_NEXT_O_ID) read from the database just
     *     before the measured period and once every terminal has stopped, against the New-Orders the
     *     driver saw commit in the same window
     * @param timeline one sample a second, warm-up included
     * @param cpuSecondsMeasured CPU seconds used during the measured period by the benchmark JVM
     *     (terminals and whatever of the target runs inside it) and by the target's own processes
     * @param jitSecondsMeasured of those, the seconds the JIT compiler threads of each JVM used (a
     *     run whose compilers were busy was not measured at steady state)
     * @param serverRetriesMeasured re-runs inside the target's servers during the measured period,
     *     by "procedure reason" ({@link TpccTarget#serverRetries}); the per-type {@code retries}
     *     count only what clients saw
     * @param serverLogMeasured the servers' log batches and records written during the measured
     *     period ({@link TpccTarget#serverLogCounters}); empty if the target does not say
     */
    public record Result(String target, int terminals, double seconds, Map<TransactionType, TypeResult> types,
            Map<String, Long> failuresByReason, long deliverySkippedDistricts, RemoteAccesses remote, String firstError,
            DistrictCheck districts, List<TpccTimeline.Sample> timeline, Map<String, Double> cpuSecondsMeasured,
            Map<String, Double> jitSecondsMeasured, Map<String, Long> serverRetriesMeasured,
            Map<String, Long> serverLogMeasured) {

        /** Where the measured period's CPU went: seconds per process (group) per second of the period, i.e. cores used. */
        public Map<String, Double> coresUsed() {
            Map<String, Double> cores = new java.util.LinkedHashMap<>();
            cpuSecondsMeasured.forEach((name, cpu) -> cores.put(name, cpu / seconds));
            return cores;
        }

        /** Of {@link #coresUsed()}, the cores each JVM's JIT compiler threads used. */
        public Map<String, Double> jitCoresUsed() {
            Map<String, Double> cores = new java.util.LinkedHashMap<>();
            jitSecondsMeasured.forEach((name, cpu) -> cores.put(name, cpu / seconds));
            return cores;
        }

        /** New-Orders committed per minute by the database's count: the growth of sum(D_NEXT_O_ID) over its window. */
        public double newOrdersPerMinuteByDistricts() {
            return districts.growth() * 60.0 / districts.windowSeconds();
        }

        /** New-Orders the driver saw commit (completed less rolled back). */
        public long newOrdersCommitted() {
            TypeResult n = types.get(TransactionType.NEW_ORDER);
            return n.completed() - n.rolledBack();
        }

        /**
         * New-Orders completed per minute, rolled-back ones included (clause 5.4.2 counts the 1%
         * rolled back on purpose as completed).
         */
        public double tpmC() {
            return types.get(TransactionType.NEW_ORDER).completed() * 60.0 / seconds;
        }

        /** All transactions completed per second. */
        public double transactionsPerSecond() {
            return types.values().stream().mapToLong(TypeResult::completed).sum() / seconds;
        }

        public long failed() {
            return types.values().stream().mapToLong(TypeResult::failed).sum();
        }
    }

    /**
     * New-Orders counted by the database and by the driver over one window: from the start of a
     * first read of sum(D_NEXT_O_ID) (while the terminals run) to a second read once every terminal
     * has stopped. A New-Order the database counts was acknowledged inside the window, so
     * {@code growth <= driverCommitted}; one the driver counts but the database does not committed
     * before its district was read the first time, i.e. before the first read ended or was in
     * flight then, so {@code growth >= driverCommitted - driverCommittedDuringFirstRead - terminals}.
     * Immutable.
     *
     * @param growth sum(D_NEXT_O_ID) after minus before
     * @param driverCommitted New-Orders the driver saw commit from the first read's start on
     * @param driverCommittedDuringFirstRead of those, the ones acknowledged while the first read ran
     * @param windowSeconds from the first read's start to the second read's end
     */
    public record DistrictCheck(long growth, long driverCommitted, long driverCommittedDuringFirstRead, double windowSeconds) {

        /** Whether the two counts agree within what in-flight transactions allow (see the class comment). */
        public boolean agrees(int terminals) {
            return growth <= driverCommitted && growth >= driverCommitted - driverCommittedDuringFirstRead - terminals;
        }
    }

    /** Told once a second what the terminals did in that second; called on the driver's thread. */
    @FunctionalInterface
    public interface Progress {
        void second(TpccTimeline.Sample sample);
    }

    /**
     * Runs the terminals against {@code target}.
     *
     * @param firstHistoryStream the first of the {@code W * terminalsPerWarehouse} consecutive
     *     HISTORY key streams the terminals use; never reuse a stream against the same database
     * @param progress told every second (the live progress line)
     */
    public Result run(TpccTarget target, int terminalsPerWarehouse, double warmupSeconds, double measureSeconds,
            int firstHistoryStream, Progress progress) throws Exception {
        if (terminalsPerWarehouse < 1 || terminalsPerWarehouse > TERMINALS_PER_WAREHOUSE_MAX) {
            throw new IllegalArgumentException("terminals per warehouse must be 1.." + TERMINALS_PER_WAREHOUSE_MAX + ", got "
                    + terminalsPerWarehouse);
        }
        if (warmupSeconds < 0 || measureSeconds <= 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 s and the measured period > 0 s");
        }
        int terminals = scale.warehouses() * terminalsPerWarehouse;
        Phase phase = new Phase();
        TpccTimeline timeline = new TpccTimeline(LATENCY_MICROS_MAX);
        Terminal[] stats = new Terminal[terminals];
        AtomicReference<String> firstError = new AtomicReference<>();
        AtomicReference<Throwable> broken = new AtomicReference<>();
        CountDownLatch ready = new CountDownLatch(terminals);
        CountDownLatch done = new CountDownLatch(terminals);
        List<Thread> threads = new ArrayList<>(terminals);
        for (int t = 0; t < terminals; t++) {
            int w = t / terminalsPerWarehouse + 1;
            int d = t % TpccScale.DISTRICTS_PER_WAREHOUSE + 1;
            Terminal mine = new Terminal(new TpccInputGenerator(scale, run, seed * 1_000_003L + t, w, d, firstHistoryStream + t,
                    remote, clockMicros), new TransactionMix(seed * 7_919L + t));
            stats[t] = mine;
            Thread thread = new Thread(() -> {
                try (TpccTarget.Session session = target.openSession()) {
                    ready.countDown();
                    int p;
                    long due = System.nanoTime();
                    // When the transaction was due to start: Long.MAX_VALUE when it starts on time.
                    long dueStart = Long.MAX_VALUE;
                    while ((p = phase.value) != Phase.STOP) {
                        mine.runOne(session, p, phase, timeline, firstError, dueStart);
                        dueStart = Long.MAX_VALUE;
                        long interval = terminalIntervalNanos;
                        if (interval > 0) {
                            long now = System.nanoTime();
                            due = Math.max(due + interval, now - PACING_BACKLOG_NANOS);
                            if (due <= now) {
                                dueStart = due; // late because of its predecessors: the wait counts
                                continue;
                            }
                            long wait = due - now;
                            while (wait > 0 && phase.value != Phase.STOP) {
                                Thread.sleep(Math.min(100, Math.max(1, wait / 1_000_000)));
                                wait = due - System.nanoTime();
                            }
                        }
                    }
                } catch (Throwable e) {
                    broken.compareAndSet(null, e);
                    ready.countDown();
                } finally {
                    done.countDown();
                }
            }, target.name() + "-terminal-" + w + "-" + d + "-" + t);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        ready.await();
        long warmupStartNanos = System.nanoTime();
        long[] lastSampleNanos = {warmupStartNanos};
        tick(timeline, progress, warmupStartNanos, lastSampleNanos, warmupStartNanos + (long) (warmupSeconds * 1e9), false);
        long windowStartNanos = System.nanoTime();
        long committedAtFirstRead = timeline.newOrdersCommitted();
        long nextOrderIdsBefore = districtNextOrderIdSum(target);
        long committedAfterFirstRead = timeline.newOrdersCommitted();
        Map<String, Double> cpuBefore = cpu(target);
        Map<String, Double> jitBefore = jit(target);
        Map<String, Long> retriesBefore = target.serverRetries();
        Map<String, Long> logBefore = target.serverLogCounters();
        long startNanos = System.nanoTime();
        phase.value = Phase.MEASURE;
        tick(timeline, progress, warmupStartNanos, lastSampleNanos, startNanos + (long) (measureSeconds * 1e9), true);
        phase.value = Phase.STOP;
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        Map<String, Double> cpuAfter = cpu(target);
        Map<String, Double> jitAfter = jit(target);
        Map<String, Long> retriesAfter = target.serverRetries();
        Map<String, Long> logAfter = target.serverLogCounters();
        done.await();
        long nextOrderIdsAfter = districtNextOrderIdSum(target);
        DistrictCheck districts = new DistrictCheck(nextOrderIdsAfter - nextOrderIdsBefore,
                timeline.newOrdersCommitted() - committedAtFirstRead, committedAfterFirstRead - committedAtFirstRead,
                (System.nanoTime() - windowStartNanos) / 1e9);
        if (broken.get() != null) {
            throw new IllegalStateException(target.name() + ": a terminal failed outside a transaction", broken.get());
        }
        Map<TransactionType, TypeResult> types = new EnumMap<>(TransactionType.class);
        for (TransactionType type : TransactionType.values()) {
            Histogram all = newHistogram();
            long completed = 0;
            long rolledBack = 0;
            long failed = 0;
            long retries = 0;
            for (Terminal s : stats) {
                int i = type.ordinal();
                all.add(s.latency[i]);
                completed += s.latency[i].getTotalCount();
                rolledBack += s.rolledBack[i];
                failed += s.failed[i];
                retries += s.retries[i];
            }
            types.put(type, new TypeResult(type, completed, rolledBack, failed, retries, all.getValueAtPercentile(50),
                    all.getValueAtPercentile(90), all.getValueAtPercentile(99), all.getMaxValue(), all.getMean()));
        }
        Map<String, Long> reasons = new TreeMap<>();
        long skipped = 0;
        long madeLocal = 0;
        long remoteLines = 0;
        long remoteOrders = 0;
        long remotePayments = 0;
        Histogram[] localLatency = {newHistogram(), newHistogram()};
        Histogram[] remoteLatency = {newHistogram(), newHistogram()};
        for (Terminal s : stats) {
            s.failures.forEach((reason, n) -> reasons.merge(reasons.size() >= REASONS_MAX && !reasons.containsKey(reason)
                    ? "other" : reason, n, Long::sum));
            skipped += s.skippedDistricts;
            madeLocal += s.inputs.remoteChoicesMadeLocal();
            remoteLines += s.remoteNewOrderLines;
            remoteOrders += s.remoteNewOrders;
            remotePayments += s.remotePayments;
            for (int k = 0; k < 2; k++) {
                localLatency[k].add(s.latency[SPLIT_TYPES[k].ordinal()]);
                localLatency[k].subtract(s.remoteLatency[k]);
                remoteLatency[k].add(s.remoteLatency[k]);
            }
        }
        String name = remote == RemoteWarehouses.ALL_LOCAL ? target.name() + " (all-local)" : target.name();
        return new Result(name, terminals, seconds, types, reasons, skipped,
                new RemoteAccesses(remote, remoteLines, remoteOrders, remotePayments, madeLocal,
                        LocalAndRemote.of(localLatency[0], remoteLatency[0]), LocalAndRemote.of(localLatency[1], remoteLatency[1])),
                firstError.get(),
                districts, timeline.samples(), difference(cpuBefore, cpuAfter), difference(jitBefore, jitAfter),
                grownDuring(retriesBefore, retriesAfter), grownDuring(logBefore, logAfter));
    }

    /** Counts grown from {@code before} to {@code after}, largest first; a count that did not grow is left out. */
    static Map<String, Long> grownDuring(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> d = new java.util.LinkedHashMap<>();
        after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
                .filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(e -> d.put(e.getKey(), e.getValue()));
        return d;
    }

    /** CPU seconds so far of the benchmark JVM and of the target's processes. */
    private static Map<String, Double> cpu(TpccTarget target) throws Exception {
        Map<String, Double> cpu = new java.util.LinkedHashMap<>();
        cpu.put(BENCHMARK_JVM, ProcessCpu.thisJvmSeconds());
        cpu.putAll(target.processCpuSeconds());
        return cpu;
    }

    /** The JIT compiler threads' CPU seconds so far, of the benchmark JVM and of the target's processes. */
    private static Map<String, Double> jit(TpccTarget target) throws Exception {
        Map<String, Double> jit = new java.util.LinkedHashMap<>();
        jit.put(BENCHMARK_JVM, ProcessCpu.thisJvmJitSeconds());
        jit.putAll(target.processJitSeconds());
        return jit;
    }

    private static Map<String, Double> difference(Map<String, Double> before, Map<String, Double> after) {
        Map<String, Double> d = new java.util.LinkedHashMap<>();
        after.forEach((name, seconds) -> d.put(name, seconds - before.getOrDefault(name, Double.NaN)));
        return d;
    }

    /** Samples the timeline every second (the last interval may be shorter) until {@code untilNanos}. */
    private static void tick(TpccTimeline timeline, Progress progress, long originNanos, long[] lastSampleNanos, long untilNanos,
            boolean measured) throws InterruptedException {
        while (true) {
            long now = System.nanoTime();
            if (now >= untilNanos) {
                break;
            }
            long next = Math.min(untilNanos, lastSampleNanos[0] + 1_000_000_000L);
            if (next > now) {
                Thread.sleep((next - now + 999_999) / 1_000_000);
                continue;
            }
            sample(timeline, progress, originNanos, lastSampleNanos, measured);
        }
        sample(timeline, progress, originNanos, lastSampleNanos, measured);
    }

    private static void sample(TpccTimeline timeline, Progress progress, long originNanos, long[] lastSampleNanos, boolean measured) {
        long now = System.nanoTime();
        double interval = (now - lastSampleNanos[0]) / 1e9;
        if (interval < 0.05) {
            return; // nothing left of this phase worth a sample
        }
        lastSampleNanos[0] = now;
        progress.second(timeline.sample((now - originNanos) / 1e9, interval, measured));
    }

    /** sum(D_NEXT_O_ID) over every district, read through the target while the terminals run. */
    private long districtNextOrderIdSum(TpccTarget target) throws Exception {
        long sum = 0;
        for (int w = 1; w <= scale.warehouses(); w++) {
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                List<Object> district = target.readRow(TpccSchema.DISTRICT, List.of(w, d));
                if (district == null) {
                    throw new IllegalStateException("district (" + w + ", " + d + ") is missing");
                }
                sum += ((Number) district.get(TpccSchema.D_NEXT_O_ID)).longValue();
            }
        }
        return sum;
    }

    /** Why a transaction failed, for the counts: the OTM's error code, Derby's SQLState, or the exception class. */
    static String reason(Throwable e) {
        if (e instanceof ElasTrasException x) {
            return "elastras " + x.code();
        }
        if (e instanceof SQLException x) {
            return "sqlstate " + x.getSQLState();
        }
        return e.getClass().getSimpleName();
    }

    private static Histogram newHistogram() {
        return new Histogram(LATENCY_MICROS_MAX, 3);
    }

    /** The types whose latency is split by remote access, in {@link Terminal#remoteLatency}'s order. */
    private static final TransactionType[] SPLIT_TYPES = {TransactionType.NEW_ORDER, TransactionType.PAYMENT};

    /** One terminal's inputs and counts; written by its thread, read by the driver after the thread ended. */
    private static final class Terminal {
        final TpccInputGenerator inputs;
        final TransactionMix mix;
        final Histogram[] latency = new Histogram[TransactionType.values().length];
        final long[] rolledBack = new long[TransactionType.values().length];
        final long[] failed = new long[TransactionType.values().length];
        final long[] retries = new long[TransactionType.values().length];
        final Map<String, Long> failures = new TreeMap<>();
        long skippedDistricts;
        /** Measured committed New-Order lines from another supply warehouse, New-Orders with one, and remote Payments. */
        long remoteNewOrderLines;
        long remoteNewOrders;
        long remotePayments;
        /** Of {@link #latency}, the New-Orders with a remote line and the remote Payments ({@link #SPLIT_TYPES}). */
        final Histogram[] remoteLatency = {newHistogram(), newHistogram()};

        Terminal(TpccInputGenerator inputs, TransactionMix mix) {
            this.inputs = inputs;
            this.mix = mix;
            for (int i = 0; i < latency.length; i++) {
                latency[i] = newHistogram();
            }
        }

        /** @param dueNanos when the transaction was due to start, if earlier than now (else Long.MAX_VALUE) */
        void runOne(TpccTarget.Session session, int startPhase, Phase phase, TpccTimeline timeline, AtomicReference<String> firstError,
                long dueNanos) {
            TransactionType type = mix.next();
            int i = type.ordinal();
            long startNanos = Math.min(System.nanoTime(), dueNanos);
            try {
                int attempts;
                boolean rolledBackNow = false;
                long skipped = 0;
                int remoteLines = 0;
                boolean remotePayment = false;
                switch (type) {
                    case NEW_ORDER -> {
                        TpccInputs.NewOrder in = inputs.newOrder();
                        TpccTarget.NewOrderResult r = session.newOrder(in);
                        attempts = r.attempts();
                        rolledBackNow = r.rolledBack();
                        remoteLines = rolledBackNow ? 0 : in.remoteLines();
                    }
                    case PAYMENT -> {
                        TpccInputs.Payment in = inputs.payment();
                        attempts = session.payment(in).attempts();
                        remotePayment = in.customerWarehouseId() != in.warehouseId();
                    }
                    case ORDER_STATUS -> attempts = session.orderStatus(inputs.orderStatus()).attempts();
                    case DELIVERY -> {
                        TpccTarget.DeliveryResult r = session.delivery(inputs.delivery());
                        attempts = r.attempts();
                        skipped = r.skippedDistricts();
                    }
                    case STOCK_LEVEL -> attempts = session.stockLevel(inputs.stockLevel()).attempts();
                    default -> throw new IllegalStateException("unknown type " + type);
                }
                long micros = (System.nanoTime() - startNanos) / 1_000;
                timeline.record(type, micros, type == TransactionType.NEW_ORDER && !rolledBackNow);
                if (startPhase == Phase.MEASURE && phase.value == Phase.MEASURE) {
                    latency[i].recordValue(Math.min(micros, LATENCY_MICROS_MAX));
                    if (remoteLines > 0 || remotePayment) {
                        remoteLatency[remotePayment ? 1 : 0].recordValue(Math.min(micros, LATENCY_MICROS_MAX));
                    }
                    retries[i] += attempts - 1;
                    rolledBack[i] += rolledBackNow ? 1 : 0;
                    skippedDistricts += skipped;
                    remoteNewOrderLines += remoteLines;
                    remoteNewOrders += remoteLines > 0 ? 1 : 0;
                    remotePayments += remotePayment ? 1 : 0;
                }
            } catch (Exception e) {
                timeline.recordFailure();
                if (startPhase == Phase.MEASURE) {
                    failed[i]++;
                    failures.merge(type + ": " + reason(e), 1L, Long::sum);
                }
                firstError.compareAndSet(null, type + ": " + e);
            }
        }
    }

    /** The phase the terminals read before and after every transaction; written by the driver only. */
    private static final class Phase {
        static final int WARM_UP = 0;
        static final int MEASURE = 1;
        static final int STOP = 2;
        volatile int value = WARM_UP;
    }
}

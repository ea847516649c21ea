package org.elastras.experiments.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Checks a {@link History} for the anomalies of {@link AnomalyClass}, in the manner of Elle
 * (Kingsbury and Alvaro, 2020), written from the definitions. Stateless apart from its options:
 * safe to share between threads; each {@link #check} works on its own data.
 *
 * <p>How it decides:
 * <ol>
 * <li><b>Which transactions committed.</b> OK ones; UNKNOWN ones whose written value a committed
 * read observed; never FAIL ones. Reads are taken only from OK transactions (an UNKNOWN
 * transaction's reads are not known to have happened).
 * <li><b>Version orders.</b> For a list key, the longest committed read is the order of its
 * appends; every other read must be a prefix of it ({@link AnomalyClass#INCOMPATIBLE_ORDER}
 * otherwise, and the key gives no edges). For a register key only part of the order is known:
 * the initial state comes first, and a committed transaction that read version r of a key before
 * writing it installs its final write right after r (what first-updater-wins and read validation
 * guarantee).
 * <li><b>Edges</b> between committed transactions, per key: ww (consecutive versions, skipping
 * versions of uncommitted writers), wr (a read's version to its writer), rw (a read to the writer
 * of the next version), each from reads made before the reader's own first write of that key
 * ("external" reads); and session edges between consecutive committed transactions of a process.
 * <li><b>Direct checks</b> on reads and timestamps (duplicates, garbage, internal, G1a, G1b, lost
 * update, session order, G-SIa, G-SIb), then <b>cycle checks</b> per {@link CyclePattern} with
 * {@link CycleSearch}: G0, G1c, G-single, G-nonadjacent (long fork when it has the classic
 * four-edge shape) and G2-item. Real-time order is not used: the system promises neither strict
 * serializability nor linearizability.
 * </ol>
 * A missing edge can only hide an anomaly, never invent one, so every uncertain case (unknown
 * outcomes, unobserved writes, keys with incompatible orders, truncated histories) leaves edges out.
 */
public final class HistoryChecker {

    /**
     * Bounds of one check.
     *
     * @param anomaliesPerClassMax      anomalies reported (with explanations) per class; cycle classes also stop searching there
     * @param startEdgesPerComponentMax cycle searches per strongly connected component and cycle class
     */
    public record Options(int anomaliesPerClassMax, int startEdgesPerComponentMax) {

        public static final Options DEFAULT = new Options(10, 64);

        public Options {
            if (anomaliesPerClassMax < 1 || anomaliesPerClassMax > 100_000) {
                throw new IllegalArgumentException("anomaliesPerClassMax must be 1 to 100000, got " + anomaliesPerClassMax);
            }
            if (startEdgesPerComponentMax < 1 || startEdgesPerComponentMax > 1_000_000) {
                throw new IllegalArgumentException("startEdgesPerComponentMax must be 1 to 1000000, got " + startEdgesPerComponentMax);
            }
        }
    }

    /** Longest rendering of one transaction inside an explanation, in characters. */
    private static final int TRANSACTION_TEXT_CHARS_MAX = 600;

    /** Most edges of one cycle spelled out in its explanation (the anomaly keeps them all). */
    private static final int CYCLE_STEPS_SHOWN_MAX = 40;

    private final Options options;

    public HistoryChecker() {
        this(Options.DEFAULT);
    }

    public HistoryChecker(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    public CheckResult check(History history) {
        return new Run(history, options).check();
    }

    /** Who wrote a value of a key, and whether it was that transaction's last write of the key. */
    private record WriteRef(int transaction, boolean finalForKey) {
    }

    /** What one transaction did to one key: its reads, those made before its first write of the key, and its writes in order. */
    private static final class KeyAccess {
        final List<MicroOp> reads = new ArrayList<>(1);
        final List<MicroOp> externalReads = new ArrayList<>(1);
        final List<Long> writes = new ArrayList<>(1);
        boolean list;

        Long finalWrite() {
            return writes.isEmpty() ? null : writes.get(writes.size() - 1);
        }
    }

    /** The state of one check. */
    private static final class Run {
        private final History history;
        private final Options options;
        private final List<Transaction> transactions;
        private final int n;
        /** Per transaction: key -> access, keys in first-use order. */
        private final List<Map<String, KeyAccess>> accesses;
        /** key -> value -> writer. */
        private final Map<String, Map<Long, WriteRef>> writers = new HashMap<>();
        private final boolean[] committed;
        private final Map<AnomalyClass, List<Anomaly>> anomalies = new EnumMap<>(AnomalyClass.class);
        private final Map<AnomalyClass, Integer> counts = new EnumMap<>(AnomalyClass.class);
        private final Set<String> unorderedKeys = new HashSet<>();

        Run(History history, Options options) {
            this.history = history;
            this.options = options;
            this.transactions = history.transactions();
            this.n = transactions.size();
            this.accesses = new ArrayList<>(n);
            this.committed = new boolean[n];
        }

        CheckResult check() {
            indexAccesses();
            decideCommitted();
            checkReads();
            checkInternal();
            DependencyGraph.Builder edges = new DependencyGraph.Builder(n);
            Map<String, List<Integer>> listReaders = listKeyReaders();
            for (Map.Entry<String, List<Integer>> entry : listReaders.entrySet()) {
                addListEdges(entry.getKey(), entry.getValue(), edges);
            }
            addRegisterEdges(edges);
            checkLostUpdates();
            addSessionEdgesAndCheck(edges);
            DependencyGraph graph = edges.build();
            checkTimestamps(graph);
            findCycles(graph);
            int committedCount = 0;
            for (boolean c : committed) {
                committedCount += c ? 1 : 0;
            }
            return new CheckResult(history.isolation(), anomalies, counts, n, committedCount, history.truncated());
        }

        // ---- indexing ----

        private void indexAccesses() {
            for (int t = 0; t < n; t++) {
                Map<String, KeyAccess> byKey = new LinkedHashMap<>();
                for (MicroOp op : transactions.get(t).ops()) {
                    KeyAccess access = byKey.computeIfAbsent(op.key(), k -> new KeyAccess());
                    access.list = op.isListOp();
                    if (op.isWrite()) {
                        access.writes.add(writtenValue(op));
                    } else {
                        access.reads.add(op);
                        if (access.writes.isEmpty()) {
                            access.externalReads.add(op);
                        }
                    }
                }
                for (Map.Entry<String, KeyAccess> entry : byKey.entrySet()) {
                    List<Long> writes = entry.getValue().writes;
                    Map<Long, WriteRef> byValue = writers.computeIfAbsent(entry.getKey(), k -> new HashMap<>());
                    for (int i = 0; i < writes.size(); i++) {
                        byValue.put(writes.get(i), new WriteRef(t, i == writes.size() - 1));
                    }
                }
                accesses.add(byKey);
            }
        }

        private static long writtenValue(MicroOp op) {
            return op instanceof MicroOp.Append append ? append.value() : ((MicroOp.Write) op).value();
        }

        private WriteRef writer(String key, long value) {
            Map<Long, WriteRef> byValue = writers.get(key);
            return byValue == null ? null : byValue.get(value);
        }

        private boolean ok(int t) {
            return transactions.get(t).outcome() == Outcome.OK;
        }

        /** OK transactions committed; UNKNOWN ones too if a committed read saw one of their writes. */
        private void decideCommitted() {
            for (int t = 0; t < n; t++) {
                committed[t] = ok(t);
            }
            for (int t = 0; t < n; t++) {
                if (!ok(t)) {
                    continue;
                }
                for (MicroOp op : transactions.get(t).ops()) {
                    for (long value : valuesRead(op)) {
                        WriteRef ref = writer(op.key(), value);
                        if (ref != null && transactions.get(ref.transaction()).outcome() == Outcome.UNKNOWN) {
                            committed[ref.transaction()] = true;
                        }
                    }
                }
            }
        }

        private static List<Long> valuesRead(MicroOp op) {
            if (op instanceof MicroOp.ReadList read) {
                return read.observed() ? read.values() : List.of();
            }
            if (op instanceof MicroOp.ReadRegister read) {
                return read.value() == null ? List.of() : List.of(read.value());
            }
            return List.of();
        }

        // ---- direct checks on reads ----

        private void checkReads() {
            for (int t = 0; t < n; t++) {
                if (!ok(t)) {
                    continue;
                }
                final int reader = t;
                for (MicroOp op : transactions.get(t).ops()) {
                    if (op.isWrite()) {
                        continue;
                    }
                    List<Long> values = valuesRead(op);
                    if (op instanceof MicroOp.ReadList read && new HashSet<>(values).size() != values.size()) {
                        report(AnomalyClass.DUPLICATE_ELEMENTS, List.of(id(reader)), () -> "T" + id(reader) + " read " + read.key() + " = "
                                + read.values() + ", which holds a value more than once.\n" + describe(reader));
                    }
                    for (int i = 0; i < values.size(); i++) {
                        long value = values.get(i);
                        WriteRef ref = writer(op.key(), value);
                        if (ref == null) {
                            if (!history.truncated()) {
                                report(AnomalyClass.GARBAGE_READ, List.of(id(reader)), () -> "T" + id(reader) + " read value " + value
                                        + " of " + op.key() + ", which no transaction wrote.\n" + describe(reader));
                            }
                            continue;
                        }
                        int w = ref.transaction();
                        if (transactions.get(w).outcome() == Outcome.FAIL) {
                            report(AnomalyClass.G1A, List.of(id(w), id(reader)), () -> "T" + id(reader) + " (committed) read value " + value
                                    + " of " + op.key() + ", written by T" + id(w) + ", which aborted.\n" + describe(w) + "\n" + describe(reader));
                        } else if (i == values.size() - 1 && !ref.finalForKey() && w != reader) {
                            report(AnomalyClass.G1B, List.of(id(w), id(reader)), () -> "T" + id(reader) + " read value " + value + " of "
                                    + op.key() + ", an intermediate write of T" + id(w) + ", which wrote " + op.key() + " again afterwards.\n"
                                    + describe(w) + "\n" + describe(reader));
                        }
                    }
                }
            }
        }

        /** Each OK transaction's reads against what it read and wrote before, key by key. */
        private void checkInternal() {
            for (int t = 0; t < n; t++) {
                if (!ok(t)) {
                    continue;
                }
                // key -> what a read must return now; for a list key whose state is not known yet, the appends it must end with.
                Map<String, List<Long>> expectedLists = new HashMap<>();
                Map<String, Boolean> listKnown = new HashMap<>();
                Map<String, Long> expectedRegisters = new HashMap<>();
                List<MicroOp> ops = transactions.get(t).ops();
                for (int i = 0; i < ops.size(); i++) {
                    MicroOp op = ops.get(i);
                    String key = op.key();
                    String expected = null;
                    if (op instanceof MicroOp.Append append) {
                        expectedLists.computeIfAbsent(key, k -> new ArrayList<>()).add(append.value());
                    } else if (op instanceof MicroOp.Write write) {
                        expectedRegisters.put(key, write.value());
                    } else if (op instanceof MicroOp.ReadList read) {
                        List<Long> want = expectedLists.get(key);
                        boolean known = listKnown.getOrDefault(key, false);
                        if (known && !read.values().equals(want)) {
                            expected = want.toString();
                        } else if (!known && want != null && !endsWith(read.values(), want)) {
                            expected = "a list ending with " + want;
                        }
                        expectedLists.put(key, new ArrayList<>(read.values()));
                        listKnown.put(key, true);
                    } else {
                        MicroOp.ReadRegister read = (MicroOp.ReadRegister) op;
                        if (expectedRegisters.containsKey(key) && !Objects.equals(expectedRegisters.get(key), read.value())) {
                            expected = String.valueOf(expectedRegisters.get(key));
                        }
                        expectedRegisters.put(key, read.value());
                    }
                    if (expected != null) {
                        final int reader = t;
                        final int position = i + 1;
                        final String want = expected;
                        report(AnomalyClass.INTERNAL, List.of(id(t)), () -> "T" + id(reader) + "'s op " + position + ", " + op + ", should have returned "
                                + want + " given the transaction's own earlier reads and writes of " + op.key() + ".\n" + describe(reader));
                    }
                }
            }
        }

        private static boolean endsWith(List<Long> list, List<Long> suffix) {
            return list.size() >= suffix.size() && list.subList(list.size() - suffix.size(), list.size()).equals(suffix);
        }

        // ---- list keys ----

        /** key -> OK transactions that read the key (as a list), in history order, each once. */
        private Map<String, List<Integer>> listKeyReaders() {
            Map<String, List<Integer>> readers = new TreeMap<>();
            for (int t = 0; t < n; t++) {
                if (!ok(t)) {
                    continue;
                }
                for (Map.Entry<String, KeyAccess> entry : accesses.get(t).entrySet()) {
                    if (entry.getValue().list && !entry.getValue().reads.isEmpty()) {
                        readers.computeIfAbsent(entry.getKey(), k -> new ArrayList<>()).add(t);
                    }
                }
            }
            return readers;
        }

        private void addListEdges(String key, List<Integer> readers, DependencyGraph.Builder edges) {
            List<Long> longest = List.of();
            int longestReader = -1;
            for (int t : readers) {
                for (MicroOp op : accesses.get(t).get(key).reads) {
                    List<Long> values = ((MicroOp.ReadList) op).values();
                    if (values.size() > longest.size()) {
                        longest = values;
                        longestReader = t;
                    }
                }
            }
            for (int t : readers) {
                for (MicroOp op : accesses.get(t).get(key).reads) {
                    MicroOp.ReadList read = (MicroOp.ReadList) op;
                    if (!isPrefix(read.values(), longest)) {
                        final List<Long> order = longest;
                        final int other = longestReader;
                        final int reader = t;
                        report(AnomalyClass.INCOMPATIBLE_ORDER, List.of(id(other), id(reader)), () -> "reads of " + key + " disagree on the order "
                                + "of appends: T" + id(other) + " read " + order + " but T" + id(reader) + " read " + read.values()
                                + ", not a prefix of it. No edges are inferred from " + key + ".\n" + describe(other) + "\n" + describe(reader));
                        unorderedKeys.add(key);
                        return;
                    }
                }
            }
            // The writer of each position of the order, or -1 where the writer is unknown or did not commit.
            int[] writerAt = new int[longest.size()];
            for (int i = 0; i < longest.size(); i++) {
                WriteRef ref = writer(key, longest.get(i));
                writerAt[i] = ref != null && committed[ref.transaction()] ? ref.transaction() : -1;
            }
            int previous = -1;
            for (int w : writerAt) {
                if (w >= 0 && w != previous) {
                    if (previous >= 0) {
                        edges.add(previous, w, DependencyKind.WW, key);
                    }
                    previous = w;
                }
            }
            for (int t : readers) {
                KeyAccess access = accesses.get(t).get(key);
                for (MicroOp op : access.externalReads) {
                    List<Long> values = ((MicroOp.ReadList) op).values();
                    int lastWriter = -1;
                    if (!values.isEmpty()) {
                        lastWriter = writerAt[values.size() - 1];
                        if (lastWriter >= 0) {
                            edges.add(lastWriter, t, DependencyKind.WR, key);
                        }
                    }
                    for (int j = values.size(); j < writerAt.length; j++) {
                        int next = writerAt[j];
                        if (next >= 0 && next != lastWriter) {
                            edges.add(t, next, DependencyKind.RW, key);
                            break;
                        }
                    }
                }
            }
        }

        private static boolean isPrefix(List<Long> prefix, List<Long> list) {
            if (prefix.size() > list.size()) {
                return false;
            }
            for (int i = 0; i < prefix.size(); i++) {
                if (!prefix.get(i).equals(list.get(i))) {
                    return false;
                }
            }
            return true;
        }

        // ---- register keys ----

        private void addRegisterEdges(DependencyGraph.Builder edges) {
            // key -> version read (null: the initial state) -> OK transactions that read it externally.
            Map<String, Map<Long, List<Integer>>> readersByVersion = new TreeMap<>();
            // key -> version -> the final writes known to follow it directly.
            Map<String, Map<Long, List<Long>>> successors = new HashMap<>();
            for (int t = 0; t < n; t++) {
                if (!ok(t)) {
                    continue;
                }
                for (Map.Entry<String, KeyAccess> entry : accesses.get(t).entrySet()) {
                    KeyAccess access = entry.getValue();
                    if (access.list) {
                        continue;
                    }
                    String key = entry.getKey();
                    Set<Long> readVersions = new HashSet<>();
                    for (MicroOp op : access.externalReads) {
                        Long version = ((MicroOp.ReadRegister) op).value();
                        if (readVersions.add(version)) {
                            readersByVersion.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(version, v -> new ArrayList<>()).add(t);
                            if (version != null) {
                                WriteRef ref = writer(key, version);
                                if (ref != null && committed[ref.transaction()]) {
                                    edges.add(ref.transaction(), t, DependencyKind.WR, key);
                                }
                            }
                        }
                    }
                    Long finalWrite = access.finalWrite();
                    if (finalWrite != null) {
                        for (Long version : readVersions) {
                            successors.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(version, v -> new ArrayList<>()).add(finalWrite);
                            WriteRef previous = version == null ? null : writer(key, version);
                            if (previous != null && committed[previous.transaction()]) {
                                edges.add(previous.transaction(), t, DependencyKind.WW, key);
                            }
                        }
                    }
                }
            }
            for (Map.Entry<String, Map<Long, List<Integer>>> byKey : readersByVersion.entrySet()) {
                String key = byKey.getKey();
                Map<Long, List<Long>> next = successors.getOrDefault(key, Map.of());
                for (Map.Entry<Long, List<Integer>> byVersion : byKey.getValue().entrySet()) {
                    List<Long> followers = next.get(byVersion.getKey());
                    if (followers == null) {
                        continue;
                    }
                    for (long follower : followers) {
                        int w = writer(key, follower).transaction();
                        for (int reader : byVersion.getValue()) {
                            edges.add(reader, w, DependencyKind.RW, key);
                        }
                    }
                }
            }
        }

        // ---- lost updates ----

        /** Two OK transactions that read the same version of a key before writing it, and both wrote it. */
        private void checkLostUpdates() {
            Map<String, Map<List<Long>, List<Integer>>> byKeyAndVersion = new TreeMap<>();
            for (int t = 0; t < n; t++) {
                if (!ok(t)) {
                    continue;
                }
                for (Map.Entry<String, KeyAccess> entry : accesses.get(t).entrySet()) {
                    KeyAccess access = entry.getValue();
                    if (access.writes.isEmpty() || access.externalReads.isEmpty() || unorderedKeys.contains(entry.getKey())) {
                        continue;
                    }
                    byKeyAndVersion.computeIfAbsent(entry.getKey(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(versionRead(access.externalReads.get(0)), v -> new ArrayList<>()).add(t);
                }
            }
            for (Map.Entry<String, Map<List<Long>, List<Integer>>> byKey : byKeyAndVersion.entrySet()) {
                for (Map.Entry<List<Long>, List<Integer>> group : byKey.getValue().entrySet()) {
                    List<Integer> members = group.getValue();
                    if (members.size() < 2) {
                        continue;
                    }
                    List<Long> ids = new ArrayList<>();
                    members.forEach(t -> ids.add(id(t)));
                    report(AnomalyClass.LOST_UPDATE, ids, () -> {
                        StringBuilder text = new StringBuilder("transactions " + names(ids) + " all read " + byKey.getKey() + " at the same version "
                                + describeVersion(group.getKey()) + " and all wrote it; each overwrote the others without seeing them.");
                        members.forEach(t -> text.append('\n').append(describe(t)));
                        return text.toString();
                    });
                }
            }
        }

        /** A version read, as a list key: the list read; for a register, the value read (empty list: the initial state). */
        private static List<Long> versionRead(MicroOp read) {
            if (read instanceof MicroOp.ReadList list) {
                return list.values();
            }
            Long value = ((MicroOp.ReadRegister) read).value();
            return value == null ? List.of() : List.of(value);
        }

        private static String describeVersion(List<Long> version) {
            return version.isEmpty() ? "(initial, empty)" : version.toString();
        }

        // ---- session order ----

        private void addSessionEdgesAndCheck(DependencyGraph.Builder edges) {
            Map<Integer, List<Integer>> byProcess = new TreeMap<>();
            for (int t = 0; t < n; t++) {
                if (ok(t)) {
                    byProcess.computeIfAbsent(transactions.get(t).process(), p -> new ArrayList<>()).add(t);
                }
            }
            for (List<Integer> session : byProcess.values()) {
                session.sort(Comparator.comparingLong((Integer t) -> transactions.get(t).invokeNanos()).thenComparingLong(this::id));
                // key -> [own last value, its writer]; key -> own values since overwritten by the session itself (registers).
                Map<String, long[]> lastOwnWrite = new HashMap<>();
                Map<String, Set<Long>> ownOverwritten = new HashMap<>();
                int highestCtsWriter = -1;
                for (int i = 0; i < session.size(); i++) {
                    int t = session.get(i);
                    if (i > 0) {
                        edges.add(session.get(i - 1), t, DependencyKind.SESSION, null);
                    }
                    Transaction transaction = transactions.get(t);
                    if (highestCtsWriter >= 0 && transaction.snapshotTimestamp() != null) {
                        Transaction earlier = transactions.get(highestCtsWriter);
                        if (transaction.snapshotTimestamp() < earlier.commitTimestamp()) {
                            final int before = highestCtsWriter;
                            report(AnomalyClass.SESSION_ORDER, List.of(id(before), id(t)), () -> "T" + id(t) + " read at snapshot "
                                    + transaction.snapshotTimestamp() + ", below the CTS " + earlier.commitTimestamp() + " of T" + id(before)
                                    + ", an earlier commit of the same process " + transaction.process() + ".\n" + describe(before) + "\n" + describe(t));
                        }
                    }
                    for (Map.Entry<String, KeyAccess> entry : accesses.get(t).entrySet()) {
                        String key = entry.getKey();
                        long[] own = lastOwnWrite.get(key);
                        if (own == null) {
                            continue;
                        }
                        for (MicroOp read : entry.getValue().externalReads) {
                            boolean missed = read instanceof MicroOp.ReadList list ? !list.values().contains(own[0])
                                    : ((MicroOp.ReadRegister) read).value() == null
                                            || ownOverwritten.getOrDefault(key, Set.of()).contains(((MicroOp.ReadRegister) read).value());
                            if (missed) {
                                int before = (int) own[1];
                                report(AnomalyClass.SESSION_ORDER, List.of(id(before), id(t)), () -> "T" + id(t) + " of process "
                                        + transaction.process() + " read " + key + " without its own session's earlier committed write "
                                        + own[0] + " (by T" + id(before) + "): " + read + ".\n" + describe(before) + "\n" + describe(t));
                                break;
                            }
                        }
                    }
                    for (Map.Entry<String, KeyAccess> entry : accesses.get(t).entrySet()) {
                        KeyAccess access = entry.getValue();
                        if (access.writes.isEmpty()) {
                            continue;
                        }
                        long[] previous = lastOwnWrite.put(entry.getKey(), new long[] {access.finalWrite(), t});
                        if (!access.list) {
                            Set<Long> overwritten = ownOverwritten.computeIfAbsent(entry.getKey(), k -> new HashSet<>());
                            if (previous != null) {
                                overwritten.add(previous[0]);
                            }
                            overwritten.addAll(access.writes.subList(0, access.writes.size() - 1));
                        }
                    }
                    // Strong session order waits for the session's last update commit; a read-only transaction's CTS does not count.
                    if (transaction.commitTimestamp() != null && transaction.writes() && (highestCtsWriter < 0
                            || transaction.commitTimestamp() > transactions.get(highestCtsWriter).commitTimestamp())) {
                        highestCtsWriter = t;
                    }
                }
            }
        }

        // ---- timestamps ----

        /** G-SIa and G-SIb, where the server reported the timestamps of both ends of an edge. */
        private void checkTimestamps(DependencyGraph graph) {
            for (int u = 0; u < n; u++) {
                Transaction from = transactions.get(u);
                for (int e = graph.firstEdge(u); e < graph.endEdge(u); e++) {
                    int v = graph.target(e);
                    Transaction to = transactions.get(v);
                    for (DependencyKind kind : new DependencyKind[] {DependencyKind.WW, DependencyKind.WR}) {
                        if (graph.has(e, kind) && from.commitTimestamp() != null && to.snapshotTimestamp() != null
                                && from.commitTimestamp() > to.snapshotTimestamp()) {
                            String key = graph.key(e, kind);
                            final int writer = u;
                            final int later = v;
                            report(AnomalyClass.G_SIA, List.of(id(u), id(v)), () -> "T" + id(later) + " "
                                    + (kind == DependencyKind.WR ? "read" : "overwrote") + " T" + id(writer) + "'s write of " + key
                                    + " (" + new CycleStep(id(writer), kind, key, id(later)) + "), but T" + id(writer) + " committed at "
                                    + from.commitTimestamp() + ", after T" + id(later) + "'s snapshot " + to.snapshotTimestamp() + ".\n"
                                    + describe(writer) + "\n" + describe(later));
                            break;
                        }
                    }
                    if (graph.has(e, DependencyKind.RW) && to.commitTimestamp() != null && from.snapshotTimestamp() != null
                            && to.commitTimestamp() <= from.snapshotTimestamp()) {
                        String key = graph.key(e, DependencyKind.RW);
                        final int reader = u;
                        final int writer = v;
                        report(AnomalyClass.G_SIB, List.of(id(u), id(v)), () -> "T" + id(reader) + " did not see T" + id(writer) + "'s write of "
                                + key + " (" + new CycleStep(id(reader), DependencyKind.RW, key, id(writer)) + "), though T" + id(writer)
                                + " committed at " + to.commitTimestamp() + ", within T" + id(reader) + "'s snapshot " + from.snapshotTimestamp()
                                + ".\n" + describe(reader) + "\n" + describe(writer));
                    }
                }
            }
        }

        // ---- cycles ----

        private void findCycles(DependencyGraph graph) {
            CycleSearch search = new CycleSearch(graph);
            if (search.cyclicComponentCount() == 0) {
                return;
            }
            int max = options.anomaliesPerClassMax();
            int starts = options.startEdgesPerComponentMax();
            for (List<CycleSearch.Step> cycle : search.find(CyclePattern.G0, max, starts)) {
                reportCycle(AnomalyClass.G0, cycle);
            }
            for (List<CycleSearch.Step> cycle : search.find(CyclePattern.G1C, max, starts)) {
                reportCycle(AnomalyClass.G1C, cycle);
            }
            for (List<CycleSearch.Step> cycle : search.find(CyclePattern.G_SINGLE, max, starts)) {
                reportCycle(AnomalyClass.G_SINGLE, cycle);
            }
            for (List<CycleSearch.Step> cycle : search.find(CyclePattern.G_NONADJACENT, max, starts)) {
                reportCycle(isLongFork(cycle) ? AnomalyClass.LONG_FORK : AnomalyClass.G_NONADJACENT, cycle);
            }
            for (List<CycleSearch.Step> cycle : search.find(CyclePattern.G2_ADJACENT, max, starts)) {
                reportCycle(AnomalyClass.G2_ITEM, cycle);
            }
        }

        /** The classic long fork: reader -rw-> writer -wr-> reader -rw-> writer -wr-> (back). */
        private static boolean isLongFork(List<CycleSearch.Step> cycle) {
            return cycle.size() == 4 && cycle.get(0).kind() == DependencyKind.RW && cycle.get(1).kind() == DependencyKind.WR
                    && cycle.get(2).kind() == DependencyKind.RW && cycle.get(3).kind() == DependencyKind.WR;
        }

        private void reportCycle(AnomalyClass type, List<CycleSearch.Step> steps) {
            List<Long> ids = new ArrayList<>(steps.size());
            List<CycleStep> cycle = new ArrayList<>(steps.size());
            for (CycleSearch.Step step : steps) {
                ids.add(id(step.from()));
                cycle.add(new CycleStep(id(step.from()), step.kind(), step.key(), id(step.to())));
            }
            report(type, ids, cycle, () -> {
                StringBuilder text = new StringBuilder(type.definition()).append(" (").append(cycle.size()).append(" edges):\n");
                int shown = Math.min(cycle.size(), CYCLE_STEPS_SHOWN_MAX);
                for (CycleStep step : cycle.subList(0, shown)) {
                    text.append("  ").append(step).append(": ").append(justify(step)).append('\n');
                }
                if (shown < cycle.size()) {
                    text.append("  ... ").append(cycle.size() - shown).append(" more edges\n");
                }
                text.append("transactions:");
                for (CycleSearch.Step step : steps.subList(0, shown)) {
                    text.append("\n  ").append(describe(step.from()));
                }
                return text.toString();
            });
        }

        private static String justify(CycleStep step) {
            String from = "T" + step.from();
            String to = "T" + step.to();
            return switch (step.kind()) {
                case WW -> to + "'s write of " + step.key() + " follows " + from + "'s";
                case WR -> to + " read " + from + "'s write of " + step.key();
                case RW -> from + " read a version of " + step.key() + " that " + to + "'s write replaced";
                case SESSION -> "same process, " + from + " committed before " + to + " started";
            };
        }

        // ---- reporting ----

        private void report(AnomalyClass type, List<Long> ids, Supplier<String> explanation) {
            report(type, ids, List.of(), explanation);
        }

        private void report(AnomalyClass type, List<Long> ids, List<CycleStep> cycle, Supplier<String> explanation) {
            counts.merge(type, 1, Integer::sum);
            List<Anomaly> list = anomalies.computeIfAbsent(type, k -> new ArrayList<>());
            if (list.size() < options.anomaliesPerClassMax()) {
                list.add(new Anomaly(type, ids, cycle, explanation.get()));
            }
        }

        private long id(int t) {
            return transactions.get(t).id();
        }

        private static String names(List<Long> ids) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < ids.size(); i++) {
                text.append(i == 0 ? "" : ", ").append('T').append(ids.get(i));
            }
            return text.toString();
        }

        private String describe(int t) {
            String text = transactions.get(t).toString();
            if (!committed[t] && transactions.get(t).outcome() == Outcome.UNKNOWN) {
                text += " [not observed: taken as not committed]";
            }
            return text.length() <= TRANSACTION_TEXT_CHARS_MAX ? text : text.substring(0, TRANSACTION_TEXT_CHARS_MAX) + "...";
        }
    }
}

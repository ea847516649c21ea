package org.elastras.experiments.history;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Builds hand-written histories for tests: each added transaction gets the next id (0, 1, 2, ...)
 * and its own slot of time, so transactions never overlap and session order is the order added.
 */
final class HistoryBuilder {

    private final IsolationLevel isolation;
    private final List<Transaction> transactions = new ArrayList<>();
    private long nanos;

    HistoryBuilder(IsolationLevel isolation) {
        this.isolation = isolation;
    }

    static HistoryBuilder serializable() {
        return new HistoryBuilder(IsolationLevel.SERIALIZABLE);
    }

    static HistoryBuilder snapshot() {
        return new HistoryBuilder(IsolationLevel.SNAPSHOT);
    }

    HistoryBuilder ok(int process, MicroOp... ops) {
        return add(process, Outcome.OK, null, null, ops);
    }

    HistoryBuilder fail(int process, MicroOp... ops) {
        return add(process, Outcome.FAIL, null, null, ops);
    }

    HistoryBuilder unknown(int process, MicroOp... ops) {
        return add(process, Outcome.UNKNOWN, null, null, ops);
    }

    /** An OK transaction with the server's snapshot and commit timestamps (either may be null). */
    HistoryBuilder okAt(int process, Long snapshot, Long cts, MicroOp... ops) {
        return add(process, Outcome.OK, snapshot, cts, ops);
    }

    private HistoryBuilder add(int process, Outcome outcome, Long snapshot, Long cts, MicroOp... ops) {
        transactions.add(new Transaction(transactions.size(), process, Arrays.asList(ops), outcome, nanos, nanos + 1, snapshot, cts));
        nanos += 2;
        return this;
    }

    History build() {
        return new History(isolation, transactions, false);
    }

    CheckResult check() {
        return new HistoryChecker().check(build());
    }

    // ---- ops ----

    static MicroOp append(String key, long value) {
        return new MicroOp.Append(key, value);
    }

    static MicroOp readList(String key, long... values) {
        return new MicroOp.ReadList(key, Arrays.stream(values).boxed().collect(Collectors.toList()));
    }

    static MicroOp write(String key, long value) {
        return new MicroOp.Write(key, value);
    }

    static MicroOp read(String key, Long value) {
        return MicroOp.ReadRegister.of(key, value);
    }

    // ---- assertions ----

    /** Asserts that exactly these classes were found. */
    static void assertClasses(CheckResult result, AnomalyClass... expected) {
        Set<AnomalyClass> wanted = expected.length == 0 ? EnumSet.noneOf(AnomalyClass.class) : EnumSet.copyOf(Arrays.asList(expected));
        assertEquals(wanted, result.classesFound(), () -> "anomaly classes differ; report:\n" + result.render());
    }

    /** The cycle of the only anomaly of {@code type}, as "T1 -rw(x)-> T0 -wr(y)-> T1". */
    static String onlyCycle(CheckResult result, AnomalyClass type) {
        List<Anomaly> anomalies = result.anomalies(type);
        assertEquals(1, anomalies.size(), () -> "expected one " + type + "; report:\n" + result.render());
        List<CycleStep> cycle = anomalies.get(0).cycle();
        StringBuilder text = new StringBuilder("T" + cycle.get(0).from());
        for (CycleStep step : cycle) {
            text.append(" -").append(step.kind().label()).append(step.key() == null ? "" : "(" + step.key() + ")").append("-> T").append(step.to());
        }
        return text.toString();
    }

    /** The transaction ids of the only anomaly of {@code type}. */
    static List<Long> onlyTransactions(CheckResult result, AnomalyClass type) {
        List<Anomaly> anomalies = result.anomalies(type);
        assertEquals(1, anomalies.size(), () -> "expected one " + type + "; report:\n" + result.render());
        return anomalies.get(0).transactionIds();
    }
}

package org.elastras.experiments.xpartition;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * What one mode measured over its phases: transfers committed, the time they ran, attempts that
 * were aborted and run again, transfers that failed for good, and the latency of the committed ones
 * (first attempt to commit, retries included). Immutable.
 *
 * @param latencyMicros a copy, owned by this value
 */
record PhaseFigures(TransferMode mode, int phases, double seconds, long committed, long attemptsAborted, long failed,
        Histogram latencyMicros) {

    PhaseFigures {
        if (phases < 1 || seconds <= 0 || committed < 0 || attemptsAborted < 0 || failed < 0) {
            throw new IllegalArgumentException("figures out of range: " + phases + " phases, " + seconds + " s, " + committed
                    + " committed, " + attemptsAborted + " aborted, " + failed + " failed");
        }
        latencyMicros = latencyMicros.copy();
    }

    double transfersPerSecond() {
        return committed / seconds;
    }

    double latencyMsAtPercentile(double percentile) {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getValueAtPercentile(percentile) / 1_000.0;
    }

    double latencyMsMax() {
        return latencyMicros.getTotalCount() == 0 ? 0 : latencyMicros.getMaxValue() / 1_000.0;
    }

    String render() {
        return String.format(Locale.ROOT, "%-17s %9.1f %10d %8.2f %8.2f %9.2f %9d %7d", mode.label(), transfersPerSecond(), committed,
                latencyMsAtPercentile(50), latencyMsAtPercentile(99), latencyMsMax(), attemptsAborted, failed);
    }

    static String header() {
        return String.format(Locale.ROOT, "%-17s %9s %10s %8s %8s %9s %9s %7s", "transfers", "per s", "committed", "p50 ms",
                "p99 ms", "max ms", "re-runs", "failed");
    }

    String json() {
        return String.format(Locale.ROOT, "{\"mode\": \"%s\", \"phases\": %d, \"seconds\": %.3f, \"committed\": %d,"
                + " \"transfersPerSecond\": %.2f, \"latencyMsP50\": %.3f, \"latencyMsP99\": %.3f, \"latencyMsMax\": %.3f,"
                + " \"attemptsAborted\": %d, \"failed\": %d}", mode.label(), phases, seconds, committed, transfersPerSecond(),
                latencyMsAtPercentile(50), latencyMsAtPercentile(99), latencyMsMax(), attemptsAborted, failed);
    }
}

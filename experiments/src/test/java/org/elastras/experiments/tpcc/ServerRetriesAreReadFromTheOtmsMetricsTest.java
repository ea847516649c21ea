package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The OTMs' procedure re-runs and log counters as the TPC-C report counts them: parsed from /metrics, differenced over the measured period. */
class ServerRetriesAreReadFromTheOtmsMetricsTest {

    @Test
    void theSamplesOfDatabaseTpccAreSummedByProcedureAndReason() {
        String metrics = String.join("\n",
                "# HELP elastras_otm_procedure_retries_total procedure runs beyond the first of a call",
                "elastras_otm_procedure_retries_total{otm=\"otm-1\"} 17",
                "# TYPE elastras_otm_procedure_retries_by_cause_total counter",
                "elastras_otm_procedure_retries_by_cause_total{otm=\"otm-1\",database=\"TPCC\",procedure=\"payment\",reason=\"CONFLICT\"} 12",
                "elastras_otm_procedure_retries_by_cause_total{otm=\"otm-1\",database=\"TPCC\",procedure=\"newOrder\",reason=\"SERIALIZATION_FAILURE\"} 4",
                "elastras_otm_procedure_retries_by_cause_total{otm=\"otm-1\",database=\"BANK\",procedure=\"payment\",reason=\"CONFLICT\"} 99",
                "elastras_otm_procedure_retries_by_cause_total{otm=\"o\\\"dd\",database=\"TPCC\",procedure=\"pay\\\\ment\",reason=\"CONFLICT\"} 1",
                "elastras_otm_snapshot_cts{otm=\"otm-1\"} 123456");
        assertEquals(Map.of("payment CONFLICT", 12L, "newOrder SERIALIZATION_FAILURE", 4L, "pay\\ment CONFLICT", 1L),
                ClusterTpccTarget.retriesByCause(metrics), "other databases and other metrics are left out");
        assertEquals(Map.of(), ClusterTpccTarget.retriesByCause("elastras_otm_serving{otm=\"otm-1\"} 1\n"));
    }

    @Test
    void theLogsBatchesAndRecordsAreReadFromTheirCounters() {
        String metrics = String.join("\n",
                "# HELP elastras_otm_wal_batches_total log batches written, each ended by one sync",
                "# TYPE elastras_otm_wal_batches_total counter",
                "elastras_otm_wal_batches_total{otm=\"otm-1\"} 1200",
                "elastras_otm_wal_records_total{otm=\"otm-1\"} 1500",
                "elastras_otm_wal_bytes_total{otm=\"otm-1\"} 99999",
                "elastras_otm_wal_sync_p99_micros{otm=\"otm-1\"} 4000",
                "elastras_otm_commits_total{otm=\"otm-1\"} 1400",
                "elastras_otm_timestamp_exchanges_total{otm=\"otm-1\"} 800",
                "elastras_otm_cts_lift_waits_total{otm=\"otm-1\"} 170",
                "elastras_otm_cts_range_waits_total{otm=\"otm-1\"} 0",
                "elastras_otm_global_snapshot_cts{otm=\"otm-1\"} 123456");
        assertEquals(Map.of("batches", 1200L, "records", 1500L, "exchanges", 800L, "lift_waits", 170L, "range_waits", 0L),
                ClusterTpccTarget.logCounters(metrics), "only the log's and the exchanges' counters, by their short names");
        assertEquals(Map.of(), ClusterTpccTarget.logCounters("elastras_otm_serving{otm=\"otm-1\"} 1\n"));
    }

    @Test
    void theMeasuredPeriodCountsWhatGrewLargestFirst() {
        Map<String, Long> before = Map.of("payment CONFLICT", 10L, "delivery CONFLICT", 3L, "newOrder SERIALIZATION_FAILURE", 5L);
        Map<String, Long> after = Map.of("payment CONFLICT", 40L, "delivery CONFLICT", 3L, "newOrder SERIALIZATION_FAILURE", 7L,
                "stockLevel CONFLICT", 2L);
        Map<String, Long> during = TpccDriver.grownDuring(before, after);
        assertEquals(List.of("payment CONFLICT", "newOrder SERIALIZATION_FAILURE", "stockLevel CONFLICT"), List.copyOf(during.keySet()),
                "largest first; ties by name; what did not grow is left out");
        assertEquals(List.of(30L, 2L, 2L), List.copyOf(during.values()));
    }
}

package org.elastras.client.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The latency buckets have the layout docs/protocol.md gives, percentiles come out of them
 * exactly as specified, the richer heartbeat load round-trips, an older OTM's load still decodes,
 * and malformed load is refused with a message naming the field.
 */
class HeartbeatLoadCarriesLatencyAndStaysCompatibleTest {

    private final ProtocolCodec codec = new ProtocolCodec();

    @Test
    void bucketsAreExactBelowFourThenFourPerPowerOfTwo() {
        assertEquals(116, LatencyHistogram.BUCKETS);
        long[][] valueToBucket = {
                {0, 0}, {1, 1}, {3, 3}, {4, 4}, {5, 5}, {7, 7}, {8, 8}, {9, 8}, {10, 9}, {15, 11}, {16, 12},
                {1_000, 35}, {1_023, 35}, {1_024, 36}, {(1L << 30) - 1, 115}, {1L << 30, 115}, {Long.MAX_VALUE, 115}};
        for (long[] vb : valueToBucket) {
            assertEquals(vb[1], LatencyHistogram.bucketOf(vb[0]), "bucket of " + vb[0]);
        }
        for (int b = 0; b < LatencyHistogram.BUCKETS; b++) {
            long lower = LatencyHistogram.bucketLowerMicros(b);
            long upper = LatencyHistogram.bucketUpperMicros(b);
            assertEquals(b, LatencyHistogram.bucketOf(lower), "lower bound of " + b);
            assertEquals(b, LatencyHistogram.bucketOf(upper - 1), "last value of " + b);
            assertTrue(b < 4 || upper * 4 <= lower * 5, "bucket " + b + " is [" + lower + ", " + upper + ")");
        }
        assertEquals(896, LatencyHistogram.bucketLowerMicros(35));
        assertEquals(1_024, LatencyHistogram.bucketUpperMicros(35));
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.bucketOf(-1));
    }

    @Test
    void percentilesAreTheLargestValueOfTheBucketCappedByTheMaximum() {
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        buckets[LatencyHistogram.bucketOf(1_000)] = 98; // [896, 1024)
        buckets[LatencyHistogram.bucketOf(50_000)] = 1; // [49152, 57344)
        buckets[LatencyHistogram.bucketOf(2)] = 1;
        LatencyHistogram h = LatencyHistogram.of(buckets, 52_000);
        assertEquals(LatencyHistogram.bucketOf(2), h.firstBucket());
        assertEquals(100, h.count());
        assertEquals(2, h.percentileMicros(0.01));
        assertEquals(1_023, h.percentileMicros(0.5));
        assertEquals(1_023, h.percentileMicros(0.99));
        assertEquals(52_000, h.percentileMicros(1.0));
        long[] back = new long[LatencyHistogram.BUCKETS];
        h.addTo(back);
        h.addTo(back);
        assertEquals(196, back[35]);
        assertEquals(2, back[LatencyHistogram.bucketOf(50_000)]);
        assertNull(LatencyHistogram.of(new long[LatencyHistogram.BUCKETS], 5));
        assertEquals(0, LatencyHistogram.percentileMicros(new long[LatencyHistogram.BUCKETS], 0.5, 0));
        assertThrows(IllegalArgumentException.class, () -> h.percentileMicros(0));
    }

    @Test
    void richLoadRoundTripsInBothFormats() {
        long[] buckets = new long[LatencyHistogram.BUCKETS];
        buckets[20] = 3;
        buckets[24] = 1;
        OtmLoad load = new OtmLoad(0.5, 10, 20, List.of(
                new PartitionLoad(7, 100, 2, 103, 4_096, LatencyHistogram.of(buckets, 300)),
                new PartitionLoad(8, 0, 0, 0, 0, null)));
        for (WireFormat format : WireFormat.values()) {
            assertEquals(load, codec.decode(codec.encode(load, format), OtmLoad.class, format, "load"), format.toString());
        }
        assertEquals(List.of(3L, 0L, 0L, 0L, 1L), load.partitions().get(0).commitLatency().counts());
    }

    @Test
    void anOlderOtmsLoadDecodesWithZerosAndNoLatency() {
        byte[] old = "{\"processCpuLoad\":0.25,\"heapUsedBytes\":1,\"heapMaxBytes\":2,\"partitions\":[{\"partitionId\":7,\"commits\":10,\"aborts\":1}]}"
                .getBytes(StandardCharsets.UTF_8);
        OtmLoad load = codec.decode(old, OtmLoad.class, WireFormat.JSON, "load");
        assertEquals(new PartitionLoad(7, 10, 1, 0, 0, null), load.partitions().get(0));
    }

    @Test
    void malformedLoadIsRefusedNamingTheField() {
        String[][] bodies = {
                {"{\"partitionId\":7,\"commits\":1,\"aborts\":0,\"begins\":-1}", "begins -1"},
                {"{\"partitionId\":7,\"storeBytes\":-5}", "storeBytes must be >= 0"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":116,\"counts\":[1],\"maxMicros\":1}}", "firstBucket"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":115,\"counts\":[1,1],\"maxMicros\":1}}", "only 116"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":0,\"counts\":[],\"maxMicros\":1}}", "counts are missing"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":0,\"counts\":[0,0],\"maxMicros\":1}}", "all zero"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":0,\"counts\":[2,-1],\"maxMicros\":1}}", ">= 0, got -1"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":0,\"counts\":[9223372036854775807,1],\"maxMicros\":1}}", "add up"},
                {"{\"partitionId\":7,\"commitLatency\":{\"firstBucket\":0,\"counts\":[1],\"maxMicros\":-1}}", "maxMicros"}};
        for (String[] b : bodies) {
            ElasTrasException e = assertThrows(ElasTrasException.class, () -> codec.decode(
                    b[0].getBytes(StandardCharsets.UTF_8), PartitionLoad.class, WireFormat.JSON, "load"), b[0]);
            assertEquals(ErrorCode.MALFORMED_REQUEST, e.code(), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + " -> " + e.getMessage());
        }
    }
}

package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import java.util.ArrayList;
import java.util.List;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.CatalogHandOver;
import org.elastras.client.protocol.FinishIncomingRequest;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.ShippedCommit;
import org.elastras.client.protocol.WireFormat;
import org.junit.jupiter.api.Test;

/**
 * An OTM's clients of other OTMs have other bounds than its server, so the server's warm-up left
 * them cold: a live move's first hand-over (origin) and first catalog write (destination, a
 * procedure call) built their Smile writers inside the move's pause.
 */
class PeerClientsAreWarmBeforeTheFirstMoveTest {

    @Test
    void theHandOverAndTheCatalogWriteFindTheirWritersBuilt() throws Exception {
        // Bounds no other test uses: these mappers start cold whatever ran before in this JVM.
        OtmClientConfig config = new OtmClientConfig(2_000, 30_000, 3 * 1024 * 1024 + 17, 64, 4);
        ObjectMapper smile = new ProtocolCodec(config.responseBytesMax(), ProtocolCodec.NESTING_DEPTH_MAX_DEFAULT)
                .mapper(WireFormat.SMILE);
        int cold = cachedWriters(smile);

        try (PeerOtms peers = new PeerOtms(config)) {
            peers.warmUp();
        }
        int warmed = cachedWriters(smile);
        assertTrue(warmed > cold, "the warm-up built writers in the mappers these clients share: " + cold + " -> " + warmed);

        for (Operation op : new Operation[] {Operation.FINISH_INCOMING, Operation.SHIP_VERSIONS, Operation.CALL}) {
            assertTrue(PeerOtms.SENT_IN_MOVES.contains(op), op + " is sent in a move's pause");
            smile.writerFor(op.requestType());
            assertEquals(warmed, cachedWriters(smile), "the writer of " + op + " requests was built ahead");
        }
    }

    @Test
    void theWarmUpSamplesCoverEveryMessageOfAPauseAndSurviveTheirRoundTrips() {
        List<Record> samples = PeerOtms.samplesSentInMoves();
        for (Operation op : new Operation[] {Operation.RECEIVE_PARTITION, Operation.SHIP_VERSIONS, Operation.FINISH_INCOMING,
                Operation.DROP_INCOMING, Operation.CALL}) {
            for (Class<?> type : List.of(op.requestType(), op.responseType())) {
                assertTrue(samples.stream().anyMatch(s -> s.getClass() == type), "a sample of " + type.getSimpleName());
            }
        }
        FinishIncomingRequest finish = samples.stream().filter(FinishIncomingRequest.class::isInstance)
                .map(FinishIncomingRequest.class::cast).findFirst().orElseThrow();
        assertTrue(finish.handOver() != null && !finish.lastCommits().isEmpty(), "the finish sample carries a hand-over and last commits");
        // Throws if one does not decode to what encodes to the same bytes.
        new ProtocolCodec().warmUp(PeerOtms.SENT_IN_MOVES, samples);
    }

    @Test
    void aHandOverOfAnySizeNeedsNoWriterTheFirstOneDidNotBuild() throws Exception {
        OtmClientConfig config = new OtmClientConfig(2_000, 30_000, 3 * 1024 * 1024 + 29, 64, 4);
        ProtocolCodec codec = new ProtocolCodec(config.responseBytesMax(), ProtocolCodec.NESTING_DEPTH_MAX_DEFAULT);
        try (PeerOtms peers = new PeerOtms(config)) {
            peers.warmUp();
        }
        ObjectMapper smile = codec.mapper(WireFormat.SMILE);
        // List.copyOf gives a different class by size (List12 for one or two, ListN beyond): a
        // writer chosen by the runtime class would be built anew for a size not seen before.
        codec.encode(handOver(3, 3), WireFormat.SMILE);
        int afterFirst = cachedWriters(smile);
        for (int[] sizes : new int[][] {{1, 1}, {2, 2}, {0, 1}, {5, 2}}) {
            byte[] bytes = codec.encode(handOver(sizes[0], sizes[1]), WireFormat.SMILE);
            assertEquals(afterFirst, cachedWriters(smile), "a hand-over of " + sizes[0] + " commits of " + sizes[1]
                    + " keys built no writer");
            FinishIncomingRequest back = (FinishIncomingRequest) codec.decodeRequest(Operation.FINISH_INCOMING, bytes,
                    WireFormat.SMILE);
            assertEquals(sizes[0], back.lastCommits().size());
            assertEquals(List.of("epoch", "row"), back.handOver().swapArgs());
            for (ShippedCommit c : back.lastCommits()) {
                assertEquals(sizes[1], c.keys().size());
                assertArrayEquals(new byte[] {1, (byte) sizes[1]}, c.keys().get(0));
            }
        }
    }

    private static FinishIncomingRequest handOver(int commits, int keys) {
        List<ShippedCommit> last = new ArrayList<>();
        for (int c = 0; c < commits; c++) {
            List<byte[]> ks = new ArrayList<>();
            List<byte[]> vs = new ArrayList<>();
            for (int k = 0; k < keys; k++) {
                ks.add(new byte[] {(byte) (k + 1), (byte) keys});
                vs.add(k % 2 == 0 ? new byte[] {9} : null);
            }
            last.add(new ShippedCommit(100 + c, ks, vs));
        }
        return new FinishIncomingRequest(12, commits == 0 ? 3 : 4, last,
                new CatalogHandOver("127.0.0.1", 7000, "elastras_meta", 2, List.of("epoch", "row")));
    }

    private static int cachedWriters(ObjectMapper mapper) {
        return ((DefaultSerializerProvider) mapper.getSerializerProvider()).cachedSerializersCount();
    }
}

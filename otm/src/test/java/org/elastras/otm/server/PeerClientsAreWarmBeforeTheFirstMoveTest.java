package org.elastras.otm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.Operation;
import org.elastras.client.protocol.ProtocolCodec;
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

    private static int cachedWriters(ObjectMapper mapper) {
        return ((DefaultSerializerProvider) mapper.getSerializerProvider()).cachedSerializersCount();
    }
}

package org.elastras.master.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.ActiveMaster;
import org.elastras.client.HeartbeatChannel;
import org.elastras.client.MasterClient;
import org.elastras.client.OtmClientConfig;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.ErrorResponse;
import org.elastras.client.protocol.HeartbeatRequest;
import org.elastras.client.protocol.HeartbeatResponse;
import org.elastras.client.protocol.ProtocolCodec;
import org.elastras.client.protocol.TimestampReport;
import org.elastras.client.protocol.WireFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The master's heartbeat port over real sockets: it is announced in ZooKeeper, answers as the
 * endpoint does (a resent report gets the stored reply, on either transport), carries the master's
 * errors with their codes, and survives bad frames: an undecodable body is answered
 * MALFORMED_REQUEST with the connection kept in step, a length out of bounds LIMIT_EXCEEDED with
 * the connection closed.
 */
class MasterHeartbeatPortTest {

    private static final ProtocolCodec CODEC = new ProtocolCodec();

    @TempDir
    Path temp;

    @Test
    void heartbeatsOverThePortAreAnsweredAsTheEndpointAnswersThemAndBadFramesChangeNothing() throws Exception {
        try (TestingServer zk = new TestingServer(true);
                CuratorFramework otm = CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(100));
                Master master = Master.start(MasterConfig.defaults("master-1", zk.getConnectString(), "/elastras",
                        temp.resolve("dfs").toUri()))) {
            otm.start();
            AtomicReference<ActiveMaster> announced = new AtomicReference<>();
            MasterReassignsAFailedOtmsPartitionsTest.await(() -> {
                try {
                    announced.set(ActiveMaster.read(otm, new ZkPaths("/elastras")));
                } catch (Exception e) {
                    announced.set(null);
                }
                return announced.get() != null && master.snapshotCts() >= 0;
            }, 20_000, "the master never announced itself with its timestamp service");
            ActiveMaster active = announced.get();
            assertEquals("master-1", active.masterId());
            assertTrue(active.heartbeatPort() > 0 && active.heartbeatPort() != active.port(),
                    "the announcement names a heartbeat port of its own: " + active);

            try (HeartbeatChannel channel = HeartbeatChannel.connect("127.0.0.1", active.heartbeatPort(), 5_000, CODEC)) {
                ElasTrasException unregistered = assertThrows(ElasTrasException.class, () -> channel.heartbeat(
                        new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)));
                assertTrue(unregistered.code() == ErrorCode.DECLARED_FAILED || unregistered.code() == ErrorCode.NOT_SERVING,
                        "a run the master does not know is refused with the endpoint's codes: " + unregistered);

                otm.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/elastras/otms/otm-x",
                        "{\"host\":\"127.0.0.1\",\"port\":1,\"run\":\"otm-x@1\"}".getBytes(StandardCharsets.UTF_8));
                AtomicReference<HeartbeatResponse> answered = new AtomicReference<>();
                MasterReassignsAFailedOtmsPartitionsTest.await(() -> {
                    try {
                        // The same channel after an error: errors keep the connection in step.
                        answered.set(channel.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)));
                        return true;
                    } catch (ElasTrasException e) {
                        assertEquals(ErrorCode.NOT_SERVING, e.code(), "until the master sees the registration: " + e);
                        return false;
                    }
                }, 20_000, "the registered run was never answered");
                HeartbeatResponse first = answered.get();
                assertEquals("master-1", first.masterId());
                assertNotNull(first.timestamps().newRange(), "the first exchange brings a range");
                assertEquals(first, channel.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)),
                        "a resent report is answered with the same reply");
                try (MasterClient endpoint = new MasterClient("127.0.0.1", active.port(), OtmClientConfig.defaults())) {
                    assertEquals(first, endpoint.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(),
                            null)), "the endpoint answers the same report from the same stored reply");
                }

                // An undecodable body: answered MALFORMED_REQUEST, and the connection stays usable.
                try (Socket raw = new Socket("127.0.0.1", active.heartbeatPort())) {
                    raw.setSoTimeout(5_000);
                    DataOutputStream out = new DataOutputStream(raw.getOutputStream());
                    DataInputStream in = new DataInputStream(raw.getInputStream());
                    HeartbeatChannel.writeFrame(out, "not smile at all".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    assertEquals(HeartbeatChannel.STATUS_ERROR, in.readUnsignedByte());
                    ErrorResponse error = CODEC.decode(HeartbeatChannel.readFrame(in, CODEC.bodyBytesMax()), ErrorResponse.class,
                            WireFormat.SMILE, "error");
                    assertEquals(ErrorCode.MALFORMED_REQUEST, error.code(), error.message());
                    HeartbeatChannel.writeFrame(out, CODEC.encode(new HeartbeatRequest("otm-x", "otm-x@1", 1,
                            TimestampReport.first(), null), WireFormat.SMILE));
                    out.flush();
                    assertEquals(HeartbeatChannel.STATUS_OK, in.readUnsignedByte(), "the next frame on it is answered");
                    assertEquals(first, CODEC.decode(HeartbeatChannel.readFrame(in, CODEC.bodyBytesMax()),
                            HeartbeatResponse.class, WireFormat.SMILE, "heartbeat response"));
                }

                // A length beyond the bound: answered LIMIT_EXCEEDED, then the connection is closed.
                try (Socket raw = new Socket("127.0.0.1", active.heartbeatPort())) {
                    raw.setSoTimeout(5_000);
                    DataOutputStream out = new DataOutputStream(raw.getOutputStream());
                    DataInputStream in = new DataInputStream(raw.getInputStream());
                    out.writeInt(Integer.MAX_VALUE);
                    out.flush();
                    assertEquals(HeartbeatChannel.STATUS_ERROR, in.readUnsignedByte());
                    ErrorResponse error = CODEC.decode(HeartbeatChannel.readFrame(in, CODEC.bodyBytesMax()), ErrorResponse.class,
                            WireFormat.SMILE, "error");
                    assertEquals(ErrorCode.LIMIT_EXCEEDED, error.code(), error.message());
                    assertThrows(EOFException.class, in::readUnsignedByte, "the master closed the connection");
                }

                // Nothing of that changed the OTM's exchange: the next report goes on from the first.
                assertEquals(first, channel.heartbeat(new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)));
            }
        }
    }

    @Test
    void aPortNobodyListensOnIsUnreachableAndAClosedChannelSendsNothing() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        ElasTrasException refused = assertThrows(ElasTrasException.class,
                () -> HeartbeatChannel.connect("127.0.0.1", port, 2_000, CODEC));
        assertEquals(ErrorCode.UNREACHABLE, refused.code());

        try (ServerSocket silent = new ServerSocket(0)) {
            HeartbeatChannel channel = HeartbeatChannel.connect("127.0.0.1", silent.getLocalPort(), 200, CODEC);
            try (Socket accepted = silent.accept()) {
                ElasTrasException noAnswer = assertThrows(ElasTrasException.class, () -> channel.heartbeat(
                        new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)));
                assertEquals(ErrorCode.OUTCOME_UNKNOWN, noAnswer.code(), "sent, never answered: " + noAnswer);
                assertTrue(accepted.getInputStream().read() >= 0, "the request was written");
                ElasTrasException closed = assertThrows(ElasTrasException.class, () -> channel.heartbeat(
                        new HeartbeatRequest("otm-x", "otm-x@1", 1, TimestampReport.first(), null)));
                assertEquals(ErrorCode.UNREACHABLE, closed.code(), "after a transport failure the channel is closed");
            }
        }
    }
}

package org.elastras.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.elastras.catalog.meta.ZkPaths;

/**
 * The active master's announcement in ZooKeeper ({@link ZkPaths#activeMaster()}): its id, the
 * address of its endpoint and its heartbeat port ({@link HeartbeatChannel}; 0 if it announces
 * none, as masters before it did: OTMs then send heartbeats to the endpoint). Immutable.
 */
public record ActiveMaster(String masterId, String host, int port, int heartbeatPort) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Reads the announcement; null if no master is active now.
     *
     * @throws IllegalStateException if the node does not hold {masterId, host, port}
     */
    public static ActiveMaster read(CuratorFramework zk, ZkPaths paths) throws Exception {
        byte[] data;
        try {
            data = zk.getData().forPath(paths.activeMaster());
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
        JsonNode node = JSON.readTree(data);
        String id = node.path("masterId").asText(null);
        String host = node.path("host").asText(null);
        int port = node.path("port").asInt(0);
        int heartbeatPort = node.path("heartbeatPort").asInt(0);
        if (id == null || host == null || port <= 0 || port > 65_535 || heartbeatPort < 0 || heartbeatPort > 65_535) {
            throw new IllegalStateException(paths.activeMaster() + " does not hold {masterId, host, port[, heartbeatPort]}: "
                    + new String(data, StandardCharsets.UTF_8));
        }
        return new ActiveMaster(id, host, port, heartbeatPort);
    }
}

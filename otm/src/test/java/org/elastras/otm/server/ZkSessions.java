package org.elastras.otm.server;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;

/** Test fault: expires a client's ZooKeeper session on the server, as a long network partition would. */
final class ZkSessions {

    private ZkSessions() {
    }

    /**
     * Opens a second handle on the same session and closes it: the server ends the session and
     * deletes its ephemeral nodes at once; the victim learns it on its next exchange.
     */
    static void expire(CuratorFramework victim, String connectString) throws Exception {
        ZooKeeper zk = victim.getZookeeperClient().getZooKeeper();
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(connectString, 10_000, event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, zk.getSessionId(), zk.getSessionPasswd());
        if (!connected.await(10, TimeUnit.SECONDS)) {
            throw new AssertionError("could not attach to the victim's session");
        }
        twin.close();
    }
}

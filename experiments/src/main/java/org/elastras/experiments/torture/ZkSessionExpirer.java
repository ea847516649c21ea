package org.elastras.experiments.torture;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * Expires the ZooKeeper session of a process of the cluster on the server, as a long network
 * partition between the process and ZooKeeper would, while the process runs on. The session is
 * the one that owns the process's ephemeral registration node; the embedded server is found by
 * walking Curator's {@link TestingServer} reflectively (Curator does not expose it, and which
 * class holds it depends on the ZooKeeper version), so this is test machinery only. Stateless.
 */
final class ZkSessionExpirer {

    /** Most objects visited looking for the server: the walk stays inside Curator's and ZooKeeper's test classes. */
    private static final int VISITS_MAX = 10_000;

    private ZkSessionExpirer() {
    }

    /**
     * Expires the session that owns {@code ephemeralPath}; returns its id.
     *
     * @throws IllegalStateException if the node is missing, not ephemeral, or the server cannot be found
     */
    static long expireOwnerOf(TestingServer zk, CuratorFramework client, String ephemeralPath) throws Exception {
        Stat stat = client.checkExists().forPath(ephemeralPath);
        if (stat == null || stat.getEphemeralOwner() == 0) {
            throw new IllegalStateException(ephemeralPath + " is missing or not ephemeral: no session to expire");
        }
        long sessionId = stat.getEphemeralOwner();
        ZooKeeperServer server = findServer(zk);
        server.expire(sessionId);
        return sessionId;
    }

    private static ZooKeeperServer findServer(Object root) throws IllegalAccessException {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Deque<Object> queue = new ArrayDeque<>();
        queue.add(root);
        while (!queue.isEmpty() && seen.size() < VISITS_MAX) {
            Object next = queue.poll();
            if (!seen.add(next)) {
                continue;
            }
            if (next instanceof ZooKeeperServer server) {
                return server;
            }
            if (next instanceof java.util.concurrent.atomic.AtomicReference<?> ref) {
                if (ref.get() != null) {
                    queue.add(ref.get());
                }
                continue;
            }
            for (Class<?> type = next.getClass(); type != null && inScope(type); type = type.getSuperclass()) {
                for (Field field : type.getDeclaredFields()) {
                    if (Modifier.isStatic(field.getModifiers()) || field.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        field.setAccessible(true);
                    } catch (RuntimeException e) {
                        continue; // A JDK class we may not open: not where the server is.
                    }
                    Object value = field.get(next);
                    if (value != null) {
                        queue.add(value);
                    }
                }
            }
        }
        throw new IllegalStateException("no ZooKeeperServer found inside the TestingServer (Curator's internals changed?)");
    }

    private static boolean inScope(Class<?> type) {
        String name = type.getName();
        return name.startsWith("org.apache.curator.test.") || name.startsWith("org.apache.zookeeper.server.");
    }
}

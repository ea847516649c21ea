package org.elastras.otm.server;

import java.util.concurrent.CountDownLatch;

/**
 * The OTM process: {@code elastras otm --id ID --zk CONNECT --dfs URI [--port P]}. Prints one
 * line {@code ELASTRAS-OTM READY id=<id> port=<port>} on standard output once it serves, and stops
 * cleanly on SIGTERM/Ctrl-C. If it can serve nothing more (lease lost, log failed, declared failed
 * by the master) it prints {@code ELASTRAS-OTM ENDED id=<id> reason=...} and exits with status 3:
 * its id is spent, and a supervisor should start an OTM under a new id.
 */
public final class OtmMain {

    /** Exit status of an OTM that can serve nothing more. */
    public static final int ENDED_STATUS = 3;

    private OtmMain() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(OtmConfig.USAGE);
            return;
        }
        OtmConfig config;
        try {
            config = OtmConfig.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("elastras otm: " + e.getMessage());
            System.exit(2);
            return;
        }
        OtmNode node;
        try {
            node = OtmNode.start(config);
        } catch (Exception e) {
            System.err.println("elastras otm: cannot start OTM " + config.otmId() + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "otm-shutdown"));
        System.out.println("ELASTRAS-OTM READY id=" + node.otmId() + " port=" + node.port());
        System.out.flush();
        // On a thread of its own: exit waits for the shutdown hook, which closes the node and the
        // threads that completed ended() (Curator's event thread, the master link).
        node.ended().thenAcceptAsync(reason -> {
            System.out.println("ELASTRAS-OTM ENDED id=" + node.otmId() + " reason=" + reason);
            System.out.flush();
            System.exit(ENDED_STATUS); // runs the shutdown hook, which closes the node
        }, r -> new Thread(r, "otm-exit").start());
        stopped.await();
    }
}

package org.elastras.master.local;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * The entry point of a child process of a local cluster: {@code ParentWatch <main class> [args]}
 * runs {@code <main class>} (an OTM's {@code OtmMain}) and exits the JVM, running its shutdown
 * hooks, as soon as its standard input ends. The launcher keeps a pipe to that input open for as
 * long as it lives, so the input ends when the launcher exits or dies, even by SIGKILL: a child
 * never outlives its launcher.
 *
 * <p>Only JDK classes: the launcher appends this module's classes to the child's class path, and
 * the main class is named, not linked, so {@code tm-master} needs no {@code otm} at compile time.
 */
public final class ParentWatch {

    /** Exit status when the parent went away (the shutdown hooks still run). */
    static final int PARENT_GONE_EXIT = 3;
    /**
     * How long the main class's shutdown hooks may take once the parent is gone. ZooKeeper usually
     * died with the launcher, and an OTM's close would retry it for a long time.
     */
    static final long SHUTDOWN_GRACE_MS = 5_000;

    private ParentWatch() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length < 1) {
            System.err.println("usage: ParentWatch <main class> [args...]");
            System.exit(2);
            return;
        }
        Thread watch = new Thread(ParentWatch::awaitEndOfInput, "parent-watch");
        watch.setDaemon(true);
        watch.start();
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void awaitEndOfInput() {
        InputStream in = System.in;
        byte[] discard = new byte[256];
        try {
            while (in.read(discard) >= 0) {
                // The launcher writes nothing; anything written is ignored.
            }
        } catch (IOException e) {
            // A broken pipe means the same thing as end of input.
        }
        System.err.println("parent-watch: the launcher is gone; stopping (halting after " + SHUTDOWN_GRACE_MS + " ms)");
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(SHUTDOWN_GRACE_MS);
            } catch (InterruptedException e) {
                // Halt now.
            }
            Runtime.getRuntime().halt(PARENT_GONE_EXIT);
        }, "parent-watch-halt");
        halt.setDaemon(true);
        halt.start();
        System.exit(PARENT_GONE_EXIT);
    }
}

package org.elastras.client;

/**
 * Time as the client sees it: a monotonic clock and a way to wait. The system one in production; a
 * manual one in tests, so retry logic runs without real sleeps. Implementations are thread-safe.
 */
interface ClientClock {

    long nanoTime();

    void sleepMs(long ms) throws InterruptedException;

    /** The JVM's monotonic clock and {@link Thread#sleep}. */
    ClientClock SYSTEM = new ClientClock() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public void sleepMs(long ms) throws InterruptedException {
            Thread.sleep(ms);
        }
    };
}

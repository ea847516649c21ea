package org.elastras.master.local;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.master.balance.Provisioner;
import org.elastras.master.balance.ProvisioningException;

/**
 * A {@link Provisioner} that runs OTMs as child processes of this JVM, started the way the local
 * cluster starts its own ({@link ChildProcess#otm}): same class path, ZooKeeper, DFS and log
 * layout ({@code <logs>/<id>.log}). Ids are {@code <prefix><n>}, numbered from a given start and
 * never reused. Thread-safe.
 *
 * <p>The children are tied to this JVM ({@link ParentWatch}): if it dies, they exit. Run it in the
 * process that should own the OTMs' lives (the local launcher), not in one that may fail over.
 * {@link #close} stops every OTM it started and still runs.
 */
public final class LocalProvisioner implements Provisioner {

    private final String classPath;
    private final String zkConnect;
    private final URI dfs;
    private final int heapMb;
    private final Path logs;
    private final String idPrefix;
    private final int pendingMax;
    private final ExecutorService workers;
    private final AtomicInteger pending = new AtomicInteger();
    /** Guarded by itself: the OTMs started and not removed, by id. */
    private final Map<String, ChildProcess> started = new TreeMap<>();
    /** Guarded by started. */
    private int nextNumber;
    private volatile boolean closed;

    /**
     * @param classPath the OTM processes' class path (the otm module with its dependencies)
     * @param zkConnect the cluster's ZooKeeper
     * @param dfs the cluster's DFS root
     * @param heapMb each OTM's heap, at least 64
     * @param logs where the OTMs' logs go
     * @param idPrefix the ids' prefix, e.g. {@code "otm-"}; ids must not collide with OTMs started elsewhere
     * @param firstNumber the number of the first OTM this provisioner starts
     * @param pendingMax most requests under way at once, 1 to 64
     */
    public LocalProvisioner(String classPath, String zkConnect, URI dfs, int heapMb, Path logs, String idPrefix,
            int firstNumber, int pendingMax) {
        if (classPath == null || classPath.isBlank() || zkConnect == null || dfs == null || logs == null
                || idPrefix == null) {
            throw new IllegalArgumentException("classPath, zkConnect, dfs, logs and idPrefix are required");
        }
        if (heapMb < 64) {
            throw new IllegalArgumentException("heapMb must be at least 64, got " + heapMb);
        }
        if (firstNumber < 0) {
            throw new IllegalArgumentException("firstNumber must be >= 0, got " + firstNumber);
        }
        if (pendingMax < 1 || pendingMax > 64) {
            throw new IllegalArgumentException("pendingMax must be in [1, 64], got " + pendingMax);
        }
        ZkPaths.checkOtmId(idPrefix + firstNumber);
        this.classPath = classPath;
        this.zkConnect = zkConnect;
        this.dfs = dfs;
        this.heapMb = heapMb;
        this.logs = logs;
        this.idPrefix = idPrefix;
        this.nextNumber = firstNumber;
        this.pendingMax = pendingMax;
        this.workers = Executors.newFixedThreadPool(pendingMax, r -> {
            Thread t = new Thread(r, "local-provisioner");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public CompletableFuture<String> addOtm() {
        CompletableFuture<String> result = new CompletableFuture<>();
        if (!admit(result)) {
            return result;
        }
        String id;
        synchronized (started) {
            id = idPrefix + nextNumber++;
        }
        workers.execute(() -> {
            try {
                ChildProcess otm = ChildProcess.otm(id, classPath, zkConnect, dfs, heapMb, logs.resolve(id + ".log"));
                boolean keep;
                synchronized (started) {
                    keep = !closed;
                    if (keep) {
                        started.put(id, otm);
                    }
                }
                if (!keep) {
                    otm.close();
                    throw new ProvisioningException("the provisioner was closed while OTM " + id + " started; it was stopped");
                }
                ended(result, id, null);
            } catch (ProvisioningException e) {
                ended(result, null, e);
            } catch (Exception e) {
                ended(result, null, new ProvisioningException("OTM " + id + " did not start: " + e.getMessage(), e));
            }
        });
        return result;
    }

    @Override
    public CompletableFuture<Void> removeOtm(String otmId) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        ChildProcess otm;
        synchronized (started) {
            otm = started.get(otmId);
        }
        if (otm == null) {
            result.completeExceptionally(new ProvisioningException("OTM " + otmId + " was not started by this provisioner"
                    + " (or was removed already); stop it where it was started"));
            return result;
        }
        if (!admit(result)) {
            return result;
        }
        workers.execute(() -> {
            try {
                otm.close();
                if (otm.alive()) {
                    throw new ProvisioningException("OTM " + otmId + " (pid " + otm.pid() + ") is still running after"
                            + " SIGTERM and SIGKILL");
                }
                synchronized (started) {
                    started.remove(otmId, otm);
                }
                ended(result, null, null);
            } catch (ProvisioningException e) {
                ended(result, null, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ended(result, null, new ProvisioningException("interrupted while stopping OTM " + otmId, e));
            } catch (RuntimeException e) {
                ended(result, null, new ProvisioningException("OTM " + otmId + " could not be stopped: " + e.getMessage(), e));
            }
        });
        return result;
    }

    /**
     * Ends a request admitted by {@link #admit}: counts it out, then completes {@code result}
     * (with {@code value}, or {@code failure} if not null), so that whoever sees the result sees
     * the request no longer pending.
     */
    private <T> void ended(CompletableFuture<T> result, T value, ProvisioningException failure) {
        pending.decrementAndGet();
        if (failure != null) {
            result.completeExceptionally(failure);
        } else {
            result.complete(value);
        }
    }

    /** Counts a request in, or fails {@code result} if closed or at the bound. */
    private boolean admit(CompletableFuture<?> result) {
        if (closed) {
            result.completeExceptionally(new ProvisioningException("the provisioner is closed"));
            return false;
        }
        if (pending.incrementAndGet() > pendingMax) {
            pending.decrementAndGet();
            result.completeExceptionally(new ProvisioningException(pendingMax + " requests are under way already;"
                    + " ask again once one finished"));
            return false;
        }
        return true;
    }

    @Override
    public int pending() {
        return pending.get();
    }

    @Override
    public int pendingMax() {
        return pendingMax;
    }

    /** The OTMs started and not removed, by id. */
    public List<String> running() {
        synchronized (started) {
            List<String> out = new ArrayList<>();
            started.forEach((id, p) -> {
                if (p.alive()) {
                    out.add(id);
                }
            });
            return out;
        }
    }

    /** The process id of OTM {@code otmId}, or -1 if this provisioner did not start it. */
    public long pid(String otmId) {
        synchronized (started) {
            ChildProcess p = started.get(otmId);
            return p == null ? -1 : p.pid();
        }
    }

    /** Stops taking requests and stops every OTM it started (SIGTERM, then SIGKILL). Idempotent. */
    @Override
    public void close() {
        List<ChildProcess> toStop;
        synchronized (started) {
            if (closed) {
                return;
            }
            closed = true;
            toStop = List.copyOf(started.values());
            started.clear();
        }
        workers.shutdown();
        for (ChildProcess p : toStop) {
            try {
                p.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}

package org.elastras.experiments.torture;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.protocol.PartitionInfo;

/**
 * Injects a seeded schedule of faults ({@link FaultKind}) into a {@link TortureCluster}: a quiet
 * period drawn from {@code [quietMsMin, quietMsMax]}, a fault, its repair (replacement process),
 * again, until stopped or {@code faultsMax} faults. The first faults are every kind once, in a
 * seeded order, so that even a short run has each kind; later ones are drawn at random. The
 * victims are drawn from the same seed among the OTMs that serve partitions (as the master reports
 * them), so a run replays the same schedule, though not the same interleaving.
 *
 * <p>Runs on one thread ({@link #run}); {@link #stop} and {@link #events} from any.
 */
final class FaultInjector {

    /** Settings. {@code pauseMs} must exceed the master's heartbeat timeout (3 s) to have the OTM declared failed. */
    record Settings(long quietMsMin, long quietMsMax, long pauseMs, long zombieAfterResumeMs, int faultsMax, long seed) {
        Settings {
            if (quietMsMin < 0 || quietMsMax < quietMsMin) {
                throw new IllegalArgumentException("need 0 <= quietMsMin <= quietMsMax, got " + quietMsMin + ", " + quietMsMax);
            }
            if (pauseMs < 0 || pauseMs > 60_000 || zombieAfterResumeMs < 0 || zombieAfterResumeMs > 60_000) {
                throw new IllegalArgumentException("pauseMs and zombieAfterResumeMs must be 0 to 60000");
            }
            if (faultsMax < 0 || faultsMax > 10_000) {
                throw new IllegalArgumentException("faultsMax must be 0 to 10000, got " + faultsMax);
            }
        }
    }

    static final long MASTER_FAILOVER_TIMEOUT_MS = 60_000;

    private final TortureCluster cluster;
    private final ElasTrasClient admin;
    private final Settings settings;
    private final Random random;
    private final List<FaultEvent> events = Collections.synchronizedList(new ArrayList<>());
    private final List<ZombieProbe.Attempt> zombieAttempts = Collections.synchronizedList(new ArrayList<>());
    /** OTMs lost without a fault aimed at them, and their replacements. */
    private final List<String> unplannedExits = Collections.synchronizedList(new ArrayList<>());
    private final Object sleeper = new Object();
    private volatile boolean stopping;

    FaultInjector(TortureCluster cluster, ElasTrasClient admin, Settings settings) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.admin = Objects.requireNonNull(admin, "admin");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.random = new Random(settings.seed());
    }

    /** Injects faults until {@link #stop} or {@code faultsMax}; a fault under way is finished first. */
    void run() throws Exception {
        // Every kind once before any repeats: the failures in the seed's order (as before moves
        // existed, so a seed keeps its first faults), then the moves.
        List<FaultKind> first = new ArrayList<>(FaultKind.FAILURES);
        Collections.shuffle(first, random);
        List<FaultKind> moves = new ArrayList<>(List.of(FaultKind.values()));
        moves.removeAll(FaultKind.FAILURES);
        first.addAll(moves);
        for (int i = 0; i < settings.faultsMax(); i++) {
            long quietMs = settings.quietMsMin() + (long) (random.nextDouble() * (settings.quietMsMax() - settings.quietMsMin()));
            if (!sleep(quietMs)) {
                return;
            }
            // An OTM can be lost without a fault aimed at it (declared failed on a slow machine): keep N serving.
            for (String exit : cluster.replaceLostOtms()) {
                unplannedExits.add(exit);
                System.out.println("torture: OTM lost without a fault aimed at it, replaced: " + exit);
            }
            FaultKind kind = i < first.size() ? first.get(i) : FaultKind.values()[random.nextInt(FaultKind.values().length)];
            FaultEvent event = inject(i, kind);
            events.add(event);
            System.out.printf("torture: fault %d %s %s -> %s (%d ms)%n", i, kind, event.target(), event.replacement(), event.recoveryMs());
        }
    }

    void stop() {
        stopping = true;
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
    }

    List<FaultEvent> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** OTMs lost without a fault aimed at them ("otm-2 (status 3) -> otm-7"). */
    List<String> unplannedExits() {
        synchronized (unplannedExits) {
            return List.copyOf(unplannedExits);
        }
    }

    /** The writes resumed zombies were asked to commit (none may be acknowledged). */
    List<ZombieProbe.Attempt> zombieAttempts() {
        synchronized (zombieAttempts) {
            return List.copyOf(zombieAttempts);
        }
    }

    private static final long MOVE_TIMEOUT_MS = 30_000;

    /** Sleeps unless stopped; false if stopped. */
    private boolean sleep(long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        synchronized (sleeper) {
            while (!stopping) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left <= 0) {
                    return true;
                }
                sleeper.wait(left);
            }
        }
        return false;
    }

    private FaultEvent inject(int index, FaultKind kind) throws Exception {
        long start = System.nanoTime();
        switch (kind) {
            case KILL_OTM -> {
                String victim = chooseOtm();
                cluster.killOtm(victim);
                // Restarted under its id, as a service manager would: a new run, with a log of its own.
                String replacement = cluster.restartOtm(victim);
                return new FaultEvent(index, kind, victim, replacement, start, System.nanoTime(), 0);
            }
            case KILL_MASTER -> {
                String victim = cluster.awaitActiveMaster(MASTER_FAILOVER_TIMEOUT_MS);
                cluster.killMaster(victim);
                long killed = System.nanoTime();
                String successor = cluster.awaitActiveMaster(MASTER_FAILOVER_TIMEOUT_MS);
                long failoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                String replacement = cluster.startMaster();
                return new FaultEvent(index, kind, victim, successor + " active, " + replacement + " standby", start, System.nanoTime(),
                        failoverMs);
            }
            case PAUSE_OTM -> {
                String victim = chooseOtm();
                List<PartitionInfo> owned = ownedBy(victim);
                cluster.pauseOtm(victim);
                try {
                    Thread.sleep(settings.pauseMs());
                } finally {
                    cluster.resumeOtm(victim);
                }
                // At once, before it may notice: a client with a stale route asks the zombie to commit.
                zombieAttempts.addAll(ZombieProbe.probe(victim, cluster.otmPort(victim), owned, index));
                // Clients with stale routes keep asking it for a while; it must refuse them too.
                Thread.sleep(settings.zombieAfterResumeMs());
                cluster.killOtm(victim);
                String replacement = cluster.startOtm();
                return new FaultEvent(index, kind, victim, replacement, start, System.nanoTime(), settings.pauseMs());
            }
            case EXPIRE_OTM_SESSION -> {
                String victim = chooseOtm();
                List<PartitionInfo> owned = ownedBy(victim);
                long session = cluster.expireOtmSession(victim);
                // Let the master see the registration vanish and reopen the partitions elsewhere;
                // the victim's heartbeats may still reach the master meanwhile.
                long reassigned = awaitReassigned(owned, victim, settings.pauseMs());
                zombieAttempts.addAll(ZombieProbe.probe(victim, cluster.otmPort(victim), owned, index));
                Thread.sleep(settings.zombieAfterResumeMs());
                cluster.killOtm(victim);
                String replacement = cluster.startOtm();
                return new FaultEvent(index, kind, victim + " (session 0x" + Long.toHexString(session) + ")", replacement, start,
                        System.nanoTime(), reassigned);
            }
            case PAUSE_OTM_AND_KILL_MASTER -> {
                String victim = chooseOtm();
                List<PartitionInfo> owned = ownedBy(victim);
                String master = cluster.awaitActiveMaster(MASTER_FAILOVER_TIMEOUT_MS);
                cluster.pauseOtm(victim);
                long failoverMs;
                String successor;
                try {
                    cluster.killMaster(master);
                    long killed = System.nanoTime();
                    successor = cluster.awaitActiveMaster(MASTER_FAILOVER_TIMEOUT_MS);
                    failoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                    Thread.sleep(settings.pauseMs());
                } finally {
                    cluster.resumeOtm(victim);
                }
                zombieAttempts.addAll(ZombieProbe.probe(victim, cluster.otmPort(victim), owned, index));
                Thread.sleep(settings.zombieAfterResumeMs());
                cluster.killOtm(victim);
                String replacement = cluster.startOtm();
                String standby = cluster.startMaster();
                return new FaultEvent(index, kind, victim + " and " + master, replacement + ", " + successor + " active, " + standby
                        + " standby", start, System.nanoTime(), failoverMs);
            }
            case MOVE_PARTITIONS -> {
                List<String> moved = new ArrayList<>();
                List<PartitionInfo> serving = servingPartitions();
                Collections.shuffle(serving, random);
                for (PartitionInfo p : serving.subList(0, Math.min(3, serving.size()))) {
                    String to = otherOtm(p.owner());
                    if (to != null && requestMove(p, to)) {
                        moved.add(p.partitionId() + " " + p.owner() + "->" + to);
                    }
                }
                long ms = awaitAllServing(MOVE_TIMEOUT_MS);
                return new FaultEvent(index, kind, moved.isEmpty() ? "no partition could move" : String.join(", ", moved),
                        "all serving", start, System.nanoTime(), ms);
            }
            case MOVE_AND_KILL_ORIGIN -> {
                List<PartitionInfo> serving = servingPartitions();
                Collections.shuffle(serving, random);
                PartitionInfo p = serving.isEmpty() ? null : serving.get(0);
                String to = p == null ? null : otherOtm(p.owner());
                if (p == null || to == null || !cluster.otmIds().contains(p.owner())) {
                    return new FaultEvent(index, kind, "no partition could move", "-", start, System.nanoTime(), 0);
                }
                List<PartitionInfo> owned = ownedBy(p.owner());
                requestMove(p, to);
                cluster.killOtm(p.owner());
                String replacement = cluster.startOtm();
                // Until the master has seen the kill and placed the victim's partitions elsewhere.
                long ms = awaitReassigned(owned, p.owner(), MOVE_TIMEOUT_MS);
                ms += awaitAllServing(MOVE_TIMEOUT_MS);
                return new FaultEvent(index, kind, "partition " + p.partitionId() + " " + p.owner() + "->" + to + ", "
                        + p.owner() + " killed", replacement, start, System.nanoTime(), ms);
            }
            default -> throw new IllegalStateException("unknown fault " + kind);
        }
    }

    /**
     * Waits until none of {@code owned} is owned by {@code victim} any more, up to {@code timeoutMs};
     * returns how long it took (or the timeout).
     */
    private long awaitReassigned(List<PartitionInfo> owned, String victim, long timeoutMs) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        Set<Long> ids = new TreeSet<>();
        owned.forEach(p -> ids.add(p.partitionId()));
        while (System.nanoTime() < deadline) {
            try {
                boolean moved = admin.admin().partitions(null).stream()
                        .noneMatch(p -> ids.contains(p.partitionId()) && victim.equals(p.owner()));
                if (moved) {
                    break;
                }
            } catch (RuntimeException e) {
                // The master is busy or failing over: ask again.
            }
            Thread.sleep(50);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** Serving partitions whose owner is a live OTM of the cluster (none if the master cannot say). */
    private List<PartitionInfo> servingPartitions() {
        List<String> live = cluster.otmIds();
        try {
            return new ArrayList<>(admin.admin().partitions(null).stream()
                    .filter(p -> "SERVING".equals(p.state()) && p.owner() != null && live.contains(p.owner())).toList());
        } catch (RuntimeException e) {
            System.out.println("torture: cannot list partitions (" + e.getMessage() + "); no move");
            return new ArrayList<>();
        }
    }

    /** A live OTM other than {@code owner}, drawn from the seed; null if none. */
    private String otherOtm(String owner) {
        List<String> others = new ArrayList<>(cluster.otmIds());
        others.remove(owner);
        return others.isEmpty() ? null : others.get(random.nextInt(others.size()));
    }

    /** Asks the master to move {@code p} to {@code to}; false if it refused or could not be asked. */
    private boolean requestMove(PartitionInfo p, String to) {
        try {
            admin.admin().movePartition(p.partitionId(), to);
            return true;
        } catch (RuntimeException e) {
            System.out.println("torture: move of partition " + p.partitionId() + " to " + to + " not started: " + e.getMessage());
            return false;
        }
    }

    /** Waits until the master reports every partition SERVING, up to {@code timeoutMs}; returns how long it took. */
    private long awaitAllServing(long timeoutMs) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline) {
            try {
                if (admin.admin().partitions(null).stream().allMatch(p -> "SERVING".equals(p.state()))) {
                    break;
                }
            } catch (RuntimeException e) {
                // The master is busy or failing over: ask again.
            }
            Thread.sleep(50);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    /** The partitions the master says {@code otm} owns (none if it cannot say). */
    private List<PartitionInfo> ownedBy(String otm) {
        try {
            return admin.admin().partitions(null).stream().filter(p -> otm.equals(p.owner())).toList();
        } catch (RuntimeException e) {
            System.out.println("torture: cannot list partitions (" + e.getMessage() + "); no zombie probe");
            return List.of();
        }
    }

    /** A live OTM drawn from the seed, among those that serve partitions if the master can say. */
    private String chooseOtm() {
        List<String> live = cluster.otmIds();
        Set<String> owners = new TreeSet<>();
        try {
            for (PartitionInfo partition : admin.admin().partitions(null)) {
                if (partition.owner() != null && live.contains(partition.owner())) {
                    owners.add(partition.owner());
                }
            }
        } catch (RuntimeException e) {
            System.out.println("torture: cannot list partitions (" + e.getMessage() + "); choosing among all OTMs");
        }
        List<String> candidates = owners.isEmpty() ? live : new ArrayList<>(owners);
        if (candidates.isEmpty()) {
            throw new IllegalStateException("no live OTM to inject a fault into");
        }
        return candidates.get(random.nextInt(candidates.size()));
    }
}

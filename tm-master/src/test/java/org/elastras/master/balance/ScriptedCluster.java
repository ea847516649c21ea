package org.elastras.master.balance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.elastras.client.protocol.OtmLoad;
import org.elastras.client.protocol.PartitionLoad;

/**
 * Test script of a cluster's load: partitions with request rates placed on OTMs, each live OTM
 * reporting cumulative counters once a second into a real {@link LoadWindow} on a manual clock.
 * A partition that changes OTM starts counting from zero there, as on a real OTM.
 */
final class ScriptedCluster {

    final LoadWindow window = new LoadWindow(LoadWindowConfig.DEFAULT);
    final TreeMap<Long, Placement> placement = new TreeMap<>();
    final TreeSet<String> live = new TreeSet<>();
    final TreeSet<String> draining = new TreeSet<>();
    final MoveLedger ledger = new MoveLedger(300_000);
    /** Requests per second of each partition; changed by the script. */
    final Map<Long, Double> rates = new HashMap<>();
    private final Map<String, Double> begins = new HashMap<>();
    int otmsBeingAdded;
    long nowMs;

    /** Places partition {@code id} on {@code otm}, serving, at {@code rate} requests per second. */
    ScriptedCluster partition(long id, String otm, double rate) {
        live.add(otm);
        placement.put(id, new Placement(otm, true));
        rates.put(id, rate);
        return this;
    }

    ScriptedCluster otm(String otm) {
        live.add(otm);
        return this;
    }

    /** Reports once a second for {@code ms}, the last report at the new time. */
    void run(long ms) {
        long end = nowMs + ms;
        if (nowMs == 0) {
            report();
        }
        while (nowMs < end) {
            nowMs += 1_000;
            report();
        }
    }

    private void report() {
        for (String otm : live) {
            List<PartitionLoad> loads = new ArrayList<>();
            for (Map.Entry<Long, Placement> e : placement.entrySet()) {
                if (otm.equals(e.getValue().owner())) {
                    String key = otm + "/" + e.getKey();
                    double counted = begins.merge(key, nowMs == 0 ? 0 : rates.get(e.getKey()), Double::sum);
                    long n = Math.round(counted);
                    loads.add(new PartitionLoad(e.getKey(), n, 0, n, 0, null));
                }
            }
            window.report(otm, nowMs, new OtmLoad(0.1, 0, 0, loads));
        }
    }

    BalanceInput input() {
        return new BalanceInput(nowMs, window.view(nowMs), placement, live, draining, ledger.inFlight(),
                ledger.lastMovedAtMs(nowMs), otmsBeingAdded);
    }

    /** Finishes a move at once: the partition serves on its destination (its counters start at zero there). */
    void complete(Move m) {
        placement.put(m.partitionId(), new Placement(m.toOtm(), true));
        begins.remove(m.fromOtm() + "/" + m.partitionId());
        ledger.ended(m.partitionId(), nowMs);
    }

    /** Starts and finishes every move of {@code plan} now. */
    void carryOut(BalancePlan plan) {
        for (Move m : plan.moves()) {
            ledger.started(m);
            complete(m);
        }
    }

    SortedMap<Long, Placement> placement() {
        return placement;
    }
}

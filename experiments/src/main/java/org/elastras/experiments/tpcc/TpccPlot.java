package org.elastras.experiments.tpcc;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.elastras.experiments.LinePlot;

/**
 * The TPC-C run as a PNG ({@link LinePlot}): per target, one line a second, warm-up included —
 * transactions per second, New-Orders per second, and the p50 and p99 latency of all transactions
 * in that second. Targets of one run share the axes, so they compare at a glance. Static.
 */
final class TpccPlot {

    private static final List<Color> COLORS = List.of(Color.BLUE, Color.RED, new Color(0, 140, 0), Color.MAGENTA,
            Color.ORANGE.darker(), Color.CYAN.darker(), Color.GRAY, Color.BLACK);

    private TpccPlot() {
    }

    static void write(Path file, List<TpccDriver.Result> runs) throws IOException {
        int width = 1100;
        int height = 900;
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = LinePlot.canvas(image);
        int n = Math.max(2, runs.stream().mapToInt(r -> r.timeline().size()).max().orElse(2));
        List<String> names = new ArrayList<>();
        List<Color> colors = new ArrayList<>();
        List<List<Double>> all = new ArrayList<>();
        List<List<Double>> newOrders = new ArrayList<>();
        List<List<Double>> p50 = new ArrayList<>();
        List<List<Double>> p99 = new ArrayList<>();
        for (int k = 0; k < runs.size(); k++) {
            TpccDriver.Result r = runs.get(k);
            names.add(r.target());
            colors.add(COLORS.get(k % COLORS.size()));
            all.add(r.timeline().stream().map(s -> s.perSecond(s.completedAll())).toList());
            newOrders.add(r.timeline().stream().map(s -> s.perSecond(s.completed()[TransactionType.NEW_ORDER.ordinal()])).toList());
            p50.add(r.timeline().stream().map(s -> s.latencyMicrosP50() / 1e3).toList());
            p99.add(r.timeline().stream().map(s -> s.latencyMicrosP99() / 1e3).toList());
        }
        List<Boolean> left = names.stream().map(x -> false).toList();
        LinePlot.legend(g, 70, 20, names, colors);
        LinePlot.panel(g, 70, 50, width - 140, 180, n, "transactions per second (all types)", all, colors, left);
        LinePlot.panel(g, 70, 265, width - 140, 180, n, "New-Orders per second", newOrders, colors, left);
        LinePlot.panel(g, 70, 480, width - 140, 170, n, "latency p50, ms (all types, per second)", p50, colors, left);
        LinePlot.panel(g, 70, 685, width - 140, 170, n, "latency p99, ms (all types, per second)", p99, colors, left);
        g.setColor(Color.BLACK);
        g.drawString("seconds from the start of the warm-up (each target's own run; 0 .. " + n + ")", width / 2 - 200, height - 15);
        LinePlot.write(g, image, file);
    }
}

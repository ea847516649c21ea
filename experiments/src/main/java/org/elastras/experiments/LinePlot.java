package org.elastras.experiments;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/**
 * Line charts of per-second series as a PNG, drawn with java.awt (headless), for the experiments'
 * figures (elasticity, TPC-C). A chart is a white canvas ({@link #canvas}) with boxed panels
 * ({@link #panel}) of series that share an x axis of n points; {@link #write} saves it. Static
 * functions; a canvas belongs to the thread drawing it.
 */
public final class LinePlot {

    private LinePlot() {
    }

    /** A white canvas of this size with antialiasing and a 12-point sans-serif font. */
    public static Graphics2D canvas(BufferedImage image) {
        System.setProperty("java.awt.headless", "true");
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        return g;
    }

    /**
     * Draws series in a box at (x, y) of size w x h, titled; those flagged {@code right} are scaled
     * on their own (right) axis, the others share the left one. Every series has at most
     * {@code n} points, spread over the box's width.
     */
    public static void panel(Graphics2D g, int x, int y, int w, int h, int n, String title, List<List<Double>> series,
            List<Color> colors, List<Boolean> right) {
        if (series.size() != colors.size() || series.size() != right.size()) {
            throw new IllegalArgumentException("series, colors and right must have one entry per series");
        }
        g.setColor(Color.BLACK);
        g.drawRect(x, y, w, h);
        g.drawString(title, x, y - 4);
        double leftMax = 1;
        double rightMax = 1;
        for (int k = 0; k < series.size(); k++) {
            double max = series.get(k).stream().mapToDouble(Double::doubleValue).max().orElse(1);
            if (right.get(k)) {
                rightMax = Math.max(rightMax, max);
            } else {
                leftMax = Math.max(leftMax, max);
            }
        }
        g.drawString(String.format("%.0f", leftMax), x - 55, y + 12);
        g.drawString("0", x - 15, y + h);
        if (right.contains(true)) {
            g.drawString(String.format("%.0f", rightMax), x + w + 5, y + 12);
        }
        g.setStroke(new BasicStroke(1.6f));
        for (int k = 0; k < series.size(); k++) {
            List<Double> s = series.get(k);
            double max = right.get(k) ? rightMax : leftMax;
            g.setColor(colors.get(k));
            for (int i = 1; i < s.size(); i++) {
                int x1 = x + (int) ((i - 1) * (double) w / Math.max(1, n - 1));
                int x2 = x + (int) (i * (double) w / Math.max(1, n - 1));
                int y1 = y + h - (int) (s.get(i - 1) / max * h);
                int y2 = y + h - (int) (s.get(i) / max * h);
                g.drawLine(x1, y1, x2, y2);
            }
        }
        g.setStroke(new BasicStroke(1f));
    }

    /** A legend: one colored line and name per entry, in a row starting at (x, y). */
    public static void legend(Graphics2D g, int x, int y, List<String> names, List<Color> colors) {
        int at = x;
        for (int k = 0; k < names.size(); k++) {
            g.setColor(colors.get(k));
            g.fillRect(at, y - 6, 18, 3);
            g.setColor(Color.BLACK);
            g.drawString(names.get(k), at + 22, y);
            at += 30 + g.getFontMetrics().stringWidth(names.get(k));
        }
    }

    /** Saves the canvas as a PNG, releasing the graphics. */
    public static void write(Graphics2D g, BufferedImage image, Path file) throws IOException {
        g.dispose();
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IllegalStateException("no PNG writer in this JVM");
        }
    }
}

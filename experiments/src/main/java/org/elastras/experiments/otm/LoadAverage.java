package org.elastras.experiments.otm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's one-minute load average from {@code /proc/loadavg}; -1 where there is none. Stateless. */
final class LoadAverage {

    private LoadAverage() {
    }

    static double oneMinute() {
        try {
            String line = Files.readString(Path.of("/proc/loadavg")).trim();
            return Double.parseDouble(line.substring(0, line.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}

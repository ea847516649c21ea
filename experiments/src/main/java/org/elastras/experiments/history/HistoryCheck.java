package org.elastras.experiments.history;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Command line: checks a JSON-lines history file ({@link HistoryJsonLines}) and prints the
 * verdict. Exit code 0 if the history is valid for the isolation level it claims, 1 if it shows a
 * forbidden anomaly, 2 if the arguments or the file are bad.
 *
 * <pre>
 * java ... org.elastras.experiments.history.HistoryCheck history.jsonl [--anomalies-per-class N]
 * </pre>
 */
public final class HistoryCheck {

    public static final int EXIT_VALID = 0;
    public static final int EXIT_ANOMALIES = 1;
    public static final int EXIT_BAD_INPUT = 2;

    /** Most transactions a history file may hold. */
    public static final int TRANSACTIONS_MAX = HistoryRecorder.TRANSACTIONS_MAX_LIMIT;

    private HistoryCheck() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Does what {@link #main} does and returns the exit code instead of exiting. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String usage = "usage: HistoryCheck <history.jsonl> [--anomalies-per-class N]";
        if (args.length != 1 && args.length != 3) {
            err.println(usage);
            return EXIT_BAD_INPUT;
        }
        HistoryChecker.Options options = HistoryChecker.Options.DEFAULT;
        if (args.length == 3) {
            if (!args[1].equals("--anomalies-per-class")) {
                err.println("unknown option " + args[1] + "; " + usage);
                return EXIT_BAD_INPUT;
            }
            try {
                options = new HistoryChecker.Options(Integer.parseInt(args[2]), options.startEdgesPerComponentMax());
            } catch (IllegalArgumentException e) {
                err.println("bad --anomalies-per-class " + args[2] + ": " + e.getMessage());
                return EXIT_BAD_INPUT;
            }
        }
        Path file = Path.of(args[0]);
        if (!Files.isRegularFile(file)) {
            err.println("no such file: " + file);
            return EXIT_BAD_INPUT;
        }
        History history;
        try {
            history = HistoryJsonLines.read(file, TRANSACTIONS_MAX);
        } catch (HistoryFormatException e) {
            err.println(file + ": " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("cannot read " + file + ": " + e);
            return EXIT_BAD_INPUT;
        }
        CheckResult result = new HistoryChecker(options).check(history);
        out.print(result.render());
        out.flush();
        return result.valid() ? EXIT_VALID : EXIT_ANOMALIES;
    }
}

package org.elastras.master;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.elastras.catalog.meta.ZkPaths;
import org.elastras.client.AdminClient;
import org.elastras.client.ElasTrasClient;
import org.elastras.client.ElasTrasClientConfig;
import org.elastras.client.protocol.ElasTrasException;
import org.elastras.client.protocol.ErrorCode;
import org.elastras.client.protocol.MovePartitionResponse;
import org.elastras.client.protocol.PartitionInfo;

/**
 * The admin commands of {@code bin/elastras}: {@code move}, {@code drain}, {@code balance --dry-run}
 * and {@code partitions}, sent to the active master found through ZooKeeper. One command per
 * process, on the calling thread.
 *
 * <p>Exit codes: {@value #EXIT_OK} done; {@value #EXIT_FAILED} the cluster refused the request or
 * could not be reached (the message says which); {@value #EXIT_USAGE} bad arguments, nothing sent;
 * {@value #EXIT_TIMED_OUT} the request was carried out but what it waits for (a move ending, a
 * drained OTM) did not happen within {@code --timeout-ms}, and goes on.
 */
public final class AdminMain {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_TIMED_OUT = 3;

    /** How long {@code move} and {@code drain} wait by default. */
    static final long TIMEOUT_MS_DEFAULT = 60_000;
    /** The longest wait one may ask for: a day. */
    static final long TIMEOUT_MS_MAX = TimeUnit.DAYS.toMillis(1);
    /** How often the wait asks the master for the partitions. */
    static final long POLL_MS = 100;

    private static final String COMMON = String.join("\n",
            "  --zk HOST:PORT[,...]  ZooKeeper connect string (required)",
            "  --root PATH           root znode (default " + ZkPaths.DEFAULT_ROOT + "; --zk-root also works)",
            "  --help                this text");

    static final String USAGE_MOVE = String.join("\n",
            "usage: elastras move --zk CONNECT [--root PATH] [--timeout-ms MS] [--coordinated] PARTITION_ID TO_OTM",
            "  Moves a serving partition to the live OTM TO_OTM, live: TO_OTM copies it while it serves, then",
            "  the owner pauses it briefly to hand it over, the catalog records TO_OTM under the next epoch",
            "  and TO_OTM serves its copy. Prints the start, then waits until it serves at TO_OTM and prints",
            "  how long that took.",
            "  --coordinated         move it the older way: the owner closes it (flushed), then TO_OTM opens it",
            "  --timeout-ms MS       how long to wait for it to serve at TO_OTM (default " + TIMEOUT_MS_DEFAULT
                    + "; exit " + EXIT_TIMED_OUT + " past it, the move goes on)",
            COMMON);
    static final String USAGE_DRAIN = String.join("\n",
            "usage: elastras drain --zk CONNECT [--root PATH] [--stop] [--no-wait] [--timeout-ms MS] OTM_ID",
            "  Drains an OTM: its partitions (the catalog's ROOT and META included) move to the other OTMs",
            "  and nothing new is assigned to it. Waits until it owns no partition.",
            "  --stop                stop draining it instead (partitions already moved stay where they are)",
            "  --no-wait             return once the drain has started",
            "  --timeout-ms MS       how long to wait for it to be empty (default " + TIMEOUT_MS_DEFAULT
                    + "; exit " + EXIT_TIMED_OUT + " past it, the drain goes on)",
            COMMON);
    static final String USAGE_BALANCE = String.join("\n",
            "usage: elastras balance --zk CONNECT [--root PATH] --dry-run",
            "  Prints what the master's balancer would do now: the moves, OTMs to add or remove, and why.",
            "  Changes nothing. (The active master carries out its own plan; there is no forced run.)",
            "  --dry-run             required",
            COMMON);
    static final String USAGE_PARTITIONS = String.join("\n",
            "usage: elastras partitions --zk CONNECT [--root PATH] [--database NAME]",
            "  Lists every partition (the catalog's ROOT and META included) with owner, epoch and state,",
            "  then the moves under way and the OTMs being drained.",
            "  --database NAME       only this database's partitions",
            COMMON);
    static final String USAGE = String.join("\n",
            "usage: elastras <move|drain|balance|partitions> --zk CONNECT [options] [arguments]",
            "  move PARTITION_ID TO_OTM   move a partition to another OTM and wait until it serves there",
            "  drain OTM_ID [--stop]      move every partition off an OTM (or stop doing so)",
            "  balance --dry-run          print the balancer's plan, changing nothing",
            "  partitions                 list partitions, moves under way and draining OTMs",
            "  elastras <command> --help  for a command's options");

    private static final String SLF4J_SIMPLE_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";

    private final PrintStream out;
    private final PrintStream err;

    private AdminMain(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        // ZooKeeper and Curator log every connection attempt (with stack traces while ZooKeeper is
        // down) through slf4j-simple; a command prints its own errors, so keep only theirs unless
        // the operator asked for more with -Dorg.slf4j.simpleLogger.defaultLogLevel.
        if (System.getProperty(SLF4J_SIMPLE_LEVEL) == null) {
            System.setProperty(SLF4J_SIMPLE_LEVEL, "error");
        }
        int code = run(args, System.out, System.err);
        System.out.flush();
        System.exit(code);
    }

    /**
     * Runs one command, printing to {@code out} and {@code err}; returns the exit code. Never calls
     * {@code System.exit}, so tests run commands in-process.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return new AdminMain(out, err).run(args);
    }

    /** The command line, parsed; nothing checked against the cluster yet. */
    record Arguments(String command, String zk, String root, long timeoutMs, boolean stop, boolean noWait,
            boolean dryRun, String database, List<String> positional, boolean coordinated) {
    }

    private int run(String[] args) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
            (args.length == 0 ? err : out).println(USAGE);
            return args.length == 0 ? EXIT_USAGE : EXIT_OK;
        }
        String command = args[0];
        String usage = switch (command) {
            case "move" -> USAGE_MOVE;
            case "drain" -> USAGE_DRAIN;
            case "balance" -> USAGE_BALANCE;
            case "partitions" -> USAGE_PARTITIONS;
            default -> null;
        };
        if (usage == null) {
            err.println("elastras: unknown admin command '" + command + "'");
            err.println(USAGE);
            return EXIT_USAGE;
        }
        List<String> rest = List.of(args).subList(1, args.length);
        if (rest.contains("--help") || rest.contains("-h")) {
            out.println(usage);
            return EXIT_OK;
        }
        Arguments a;
        try {
            a = parse(command, rest);
        } catch (IllegalArgumentException e) {
            err.println("elastras " + command + ": " + e.getMessage());
            err.println("(elastras " + command + " --help for the options)");
            return EXIT_USAGE;
        }
        ElasTrasClient connected;
        try {
            connected = ElasTrasClient.connect(a.zk(), ElasTrasClientConfig.defaults().withZkRoot(a.root()));
        } catch (IllegalArgumentException e) {
            // Curator refuses a connect string it cannot parse.
            err.println("elastras " + command + ": --zk '" + a.zk() + "' is not a ZooKeeper connect string: "
                    + e.getMessage());
            return EXIT_USAGE;
        } catch (ElasTrasException e) {
            err.println("elastras " + command + ": " + e.code() + ": " + e.getMessage());
            return EXIT_FAILED;
        }
        try (ElasTrasClient client = connected) {
            AdminClient admin = client.admin();
            return switch (command) {
                case "move" -> move(admin, a);
                case "drain" -> drain(admin, a);
                case "balance" -> balance(admin);
                case "partitions" -> partitions(admin, a);
                default -> throw new IllegalStateException("command list and switch disagree on " + command);
            };
        } catch (ElasTrasException e) {
            err.println("elastras " + command + ": " + e.code() + ": " + e.getMessage());
            if (command.equals("move") && e.code() == ErrorCode.OUTCOME_UNKNOWN) {
                err.println("the move may have started; see elastras partitions --zk " + a.zk());
            }
            return e.code() == ErrorCode.MALFORMED_REQUEST || e.code() == ErrorCode.LIMIT_EXCEEDED ? EXIT_USAGE
                    : EXIT_FAILED;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("elastras " + command + ": interrupted");
            return EXIT_FAILED;
        }
    }

    /**
     * Parses a command's arguments (after the command word).
     *
     * @throws IllegalArgumentException naming the bad, missing or unknown argument
     */
    static Arguments parse(String command, List<String> args) {
        String zk = null;
        String root = ZkPaths.DEFAULT_ROOT;
        long timeoutMs = TIMEOUT_MS_DEFAULT;
        boolean stop = false;
        boolean noWait = false;
        boolean dryRun = false;
        boolean coordinated = false;
        String database = null;
        List<String> positional = new ArrayList<>();
        List<String> valued = switch (command) {
            case "move" -> List.of("--zk", "--root", "--zk-root", "--timeout-ms");
            case "drain" -> List.of("--zk", "--root", "--zk-root", "--timeout-ms");
            case "partitions" -> List.of("--zk", "--root", "--zk-root", "--database");
            default -> List.of("--zk", "--root", "--zk-root");
        };
        List<String> switches = switch (command) {
            case "drain" -> List.of("--stop", "--no-wait");
            case "balance" -> List.of("--dry-run");
            case "move" -> List.of("--coordinated");
            default -> List.of();
        };
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (switches.contains(arg)) {
                switch (arg) {
                    case "--stop" -> stop = true;
                    case "--no-wait" -> noWait = true;
                    case "--dry-run" -> dryRun = true;
                    case "--coordinated" -> coordinated = true;
                    default -> throw new IllegalStateException("switch list and switch disagree on " + arg);
                }
            } else if (valued.contains(arg)) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException("missing value after " + arg);
                }
                String value = args.get(++i);
                switch (arg) {
                    case "--zk" -> zk = value;
                    case "--root", "--zk-root" -> root = value;
                    case "--timeout-ms" -> timeoutMs = timeoutMs(value);
                    case "--database" -> database = value;
                    default -> throw new IllegalStateException("flag list and switch disagree on " + arg);
                }
            } else if (arg.startsWith("-")) {
                throw new IllegalArgumentException("unknown option '" + arg + "'");
            } else {
                positional.add(arg);
            }
        }
        if (zk == null || zk.isBlank()) {
            throw new IllegalArgumentException("--zk is required: the ZooKeeper connect string, e.g. 127.0.0.1:2181");
        }
        try {
            new ZkPaths(root);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--root '" + root + "' is not a znode path: " + e.getMessage());
        }
        int expected = switch (command) {
            case "move" -> 2;
            case "drain" -> 1;
            default -> 0;
        };
        if (positional.size() != expected) {
            String wanted = switch (command) {
                case "move" -> "PARTITION_ID and TO_OTM";
                case "drain" -> "OTM_ID";
                default -> "no arguments";
            };
            throw new IllegalArgumentException("expected " + wanted + ", got " + (positional.isEmpty() ? "none"
                    : String.join(" ", positional)));
        }
        if (command.equals("move")) {
            partitionId(positional.get(0));
        }
        if (command.equals("balance") && !dryRun) {
            throw new IllegalArgumentException("only --dry-run is supported: the active master carries out its"
                    + " balancer's plan by itself every few seconds");
        }
        return new Arguments(command, zk, root, timeoutMs, stop, noWait, dryRun, database, List.copyOf(positional),
                coordinated);
    }

    static long partitionId(String text) {
        long id;
        try {
            id = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("PARTITION_ID must be a number, got '" + text
                    + "' (elastras partitions lists the ids)");
        }
        if (id < 1) {
            throw new IllegalArgumentException("PARTITION_ID must be 1 or more, got " + id);
        }
        return id;
    }

    private static long timeoutMs(String text) {
        long ms;
        try {
            ms = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--timeout-ms needs a number of milliseconds, got '" + text + "'");
        }
        if (ms < 1 || ms > TIMEOUT_MS_MAX) {
            throw new IllegalArgumentException("--timeout-ms must be 1 to " + TIMEOUT_MS_MAX + ", got " + ms);
        }
        return ms;
    }

    // ---------------------------------------------------------------- the commands

    private int move(AdminClient admin, Arguments a) throws InterruptedException {
        long partitionId = partitionId(a.positional().get(0));
        String to = a.positional().get(1);
        long startNanos = System.nanoTime();
        MovePartitionResponse started = admin.movePartition(partitionId, to, a.coordinated() ? Boolean.FALSE : null);
        PartitionInfo p = started.partition();
        out.println("moving partition " + partitionId + " (" + p.database() + ") from " + p.owner() + " to " + to
                + ": started at epoch " + p.epoch() + ", " + p.state());
        out.flush();
        long deadlineNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(a.timeoutMs());
        String lastSeen = describe(p);
        while (true) {
            PartitionInfo now = find(admin.partitions(null), partitionId);
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            if (now == null) {
                err.println("partition " + partitionId + " is gone from the master's map after " + elapsedMs + " ms");
                return EXIT_FAILED;
            }
            lastSeen = describe(now);
            if (now.state().equals("SERVING")) {
                if (to.equals(now.owner())) {
                    out.println("partition " + partitionId + " serves at " + to + ", epoch " + now.epoch() + ", after "
                            + elapsedMs + " ms");
                    return EXIT_OK;
                }
                err.println("the move of partition " + partitionId + " to " + to + " did not complete: it serves at "
                        + now.owner() + ", epoch " + now.epoch() + " (the close failed or " + to + " went away;"
                        + " the master's events say which)");
                return EXIT_FAILED;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                err.println("partition " + partitionId + " does not serve at " + to + " after " + elapsedMs + " ms: it is "
                        + lastSeen + "; the move goes on (elastras partitions shows it)");
                return EXIT_TIMED_OUT;
            }
            Thread.sleep(POLL_MS);
        }
    }

    private int drain(AdminClient admin, Arguments a) throws InterruptedException {
        String otmId = a.positional().get(0);
        long startNanos = System.nanoTime();
        List<String> draining = admin.drainOtm(otmId, !a.stop());
        if (a.stop()) {
            out.println("stopped draining " + otmId + "; draining now: " + names(draining));
            return EXIT_OK;
        }
        out.println("draining " + otmId + "; draining now: " + names(draining));
        out.flush();
        if (a.noWait()) {
            return EXIT_OK;
        }
        long deadlineNanos = startNanos + TimeUnit.MILLISECONDS.toNanos(a.timeoutMs());
        String lastReport = null;
        while (true) {
            Map<Long, PartitionInfo> owned = new TreeMap<>();
            for (PartitionInfo p : admin.partitions(null)) {
                if (otmId.equals(p.owner())) {
                    owned.put(p.partitionId(), p);
                }
            }
            long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
            if (owned.isEmpty()) {
                out.println(otmId + " owns no partition after " + elapsedMs + " ms");
                return EXIT_OK;
            }
            String report = otmId + " owns " + owned.size() + (owned.size() == 1 ? " partition: " : " partitions: ")
                    + owned.values().stream().map(p -> p.partitionId() + " (" + p.state() + ")").toList();
            if (!report.equals(lastReport)) {
                out.println(report);
                out.flush();
                lastReport = report;
            }
            if (System.nanoTime() - deadlineNanos >= 0) {
                err.println("after " + elapsedMs + " ms " + report + "; the drain goes on (stop it with --stop)");
                return EXIT_TIMED_OUT;
            }
            Thread.sleep(POLL_MS);
        }
    }

    private int balance(AdminClient admin) {
        out.print(admin.balancePlan().text());
        return EXIT_OK;
    }

    private int partitions(AdminClient admin, Arguments a) {
        List<PartitionInfo> all = admin.partitions(a.database());
        String format = "%-6s %-16s %-16s %6s  %-14s %s%n";
        out.printf(format, "ID", "DATABASE", "OWNER", "EPOCH", "STATE", "ROOT KEYS");
        for (PartitionInfo p : all) {
            out.printf(format, p.partitionId(), p.database(), p.owner() == null ? "-" : p.owner(), p.epoch(), p.state(),
                    "[" + (p.startKey() == null ? "-inf" : p.startKey()) + ", " + (p.endKey() == null ? "+inf" : p.endKey())
                            + ")");
        }
        var moves = admin.moves();
        for (var m : moves.moves()) {
            out.println("moving: partition " + m.partitionId() + " " + m.fromOtm() + " -> " + m.toOtm() + " (" + m.reason()
                    + ", " + m.elapsedMs() + " ms)");
        }
        out.println("draining: " + names(moves.draining()) + "; moves finished: " + moves.movesFinished());
        return EXIT_OK;
    }

    private static PartitionInfo find(List<PartitionInfo> partitions, long partitionId) {
        for (PartitionInfo p : partitions) {
            if (p.partitionId() == partitionId) {
                return p;
            }
        }
        return null;
    }

    private static String describe(PartitionInfo p) {
        return p.state() + " at " + p.owner() + ", epoch " + p.epoch();
    }

    private static String names(List<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", names);
    }
}

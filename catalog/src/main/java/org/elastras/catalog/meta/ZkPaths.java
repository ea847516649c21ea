package org.elastras.catalog.meta;

/**
 * The layout of ElasTraS's nodes in ZooKeeper, as string logic only. Immutable.
 *
 * <pre>
 *   {root}              default /elastras
 *   {root}/master       the elected master's address (ephemeral)
 *   {root}/otms         one child per live OTM
 *   {root}/otms/{id}    an OTM's registration (ephemeral)
 *   {root}/active-master  the active master's address (ephemeral)
 *   {root}/root         the ROOT catalog partition's record (owner, epoch)
 *   {root}/ts           the timestamp service's state
 * </pre>
 *
 * @param root the absolute path all nodes live under
 */
public record ZkPaths(String root) {

    /** The root used unless configured otherwise. */
    public static final String DEFAULT_ROOT = "/elastras";

    /** Longest path segment (OTM id or root segment), in characters. */
    public static final int SEGMENT_LENGTH_MAX = 128;

    public ZkPaths {
        if (root == null || !root.startsWith("/") || root.length() < 2 || root.endsWith("/")) {
            throw new IllegalArgumentException("ZooKeeper root '" + root
                    + "' must be an absolute path without a trailing '/', such as " + DEFAULT_ROOT);
        }
        for (String segment : root.substring(1).split("/", -1)) {
            checkSegment("ZooKeeper root " + root, segment);
        }
    }

    /** The layout under {@link #DEFAULT_ROOT}. */
    public static ZkPaths defaults() {
        return new ZkPaths(DEFAULT_ROOT);
    }

    /**
     * Checks that {@code id} can name an OTM: 1 to {@link #SEGMENT_LENGTH_MAX} characters from
     * {@code [A-Za-z0-9._-]}, not "." or "..".
     *
     * @throws IllegalArgumentException if it cannot
     */
    public static void checkOtmId(String id) {
        checkSegment("OTM id", id);
    }

    private static void checkSegment(String what, String segment) {
        if (segment == null || segment.isEmpty() || segment.length() > SEGMENT_LENGTH_MAX
                || segment.equals(".") || segment.equals("..")) {
            throw new IllegalArgumentException(what + ": segment '" + segment + "' must be 1 to " + SEGMENT_LENGTH_MAX
                    + " characters and not '.' or '..'");
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '.' || c == '_' || c == '-';
            if (!ok) {
                throw new IllegalArgumentException(what + ": segment '" + segment + "' has '" + c
                        + "'; use only letters, digits, '.', '_' and '-'");
            }
        }
    }

    /** The elected master's node. */
    public String master() {
        return root + "/master";
    }

    /**
     * The active master's announcement: an ephemeral node with its id and address, written once it
     * has taken over (OTMs send their heartbeats there).
     */
    public String activeMaster() {
        return root + "/active-master";
    }

    /** The parent of the OTMs' registrations. */
    public String otms() {
        return root + "/otms";
    }

    /** The registration of the OTM named {@code id}. */
    public String otm(String id) {
        checkOtmId(id);
        return otms() + "/" + id;
    }

    /** The node holding the location of the ROOT catalog partition. */
    public String rootPartition() {
        return root + "/root";
    }

    /** The timestamp service's node. */
    public String ts() {
        return root + "/ts";
    }

}

package org.elastras.storage.dfs;

/** Validation of the relative paths every {@link Dfs} accepts. Stateless. */
final class DfsPaths {

    private DfsPaths() {
    }

    /** Returns the path without leading/trailing '/', or throws if it could escape the root. */
    static String check(String path) {
        if (path == null) {
            throw new IllegalArgumentException("DFS path is null");
        }
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        for (String segment : trimmed.split("/", -1)) {
            if (segment.equals("..") || segment.equals(".") || (segment.isEmpty() && !trimmed.isEmpty())) {
                throw new IllegalArgumentException("DFS path '" + path
                        + "' must be relative to the DFS root without '.', '..' or empty segments");
            }
        }
        return trimmed;
    }

    static String parent(String checkedPath) {
        int slash = checkedPath.lastIndexOf('/');
        return slash < 0 ? "" : checkedPath.substring(0, slash);
    }
}

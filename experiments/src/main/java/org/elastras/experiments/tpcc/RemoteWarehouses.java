package org.elastras.experiments.tpcc;

import java.util.Arrays;

/**
 * Whether a terminal's remote warehouse choices are kept: New-Order's 1% of lines from another
 * supply warehouse (clause 2.4.1.5) and Payment's 15% of customers of another warehouse (clause
 * 2.5.1.2). Immutable.
 */
public enum RemoteWarehouses {

    /** As the spec says: remote lines and remote customers use the other warehouse drawn. */
    SPEC("spec"),
    /**
     * Every access local, for comparison: the same random draws are made (so both modes see the
     * same sequence of inputs otherwise), then the home warehouse is used instead. Not TPC-C.
     */
    ALL_LOCAL("all-local");

    private final String optionName;

    RemoteWarehouses(String optionName) {
        this.optionName = optionName;
    }

    /** The name on the command line and in the results: "spec" or "all-local". */
    public String optionName() {
        return optionName;
    }

    /** The mode named {@code name} ("spec" or "all-local"). */
    public static RemoteWarehouses parse(String name) {
        return Arrays.stream(values()).filter(m -> m.optionName.equals(name.trim())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("remote warehouse mode must be spec or all-local, got '" + name + "'"));
    }
}

package org.elastras.experiments.tpcc;

/**
 * One broken consistency condition of clause 3.3.2: its number (1..12, i.e. 3.3.2.1..3.3.2.12)
 * and what was found. Immutable.
 */
public record ConsistencyViolation(int condition, String detail) {

    public static final int CONDITIONS = 12;
    /** Details kept per condition and district/warehouse; the rest are only counted. */
    public static final int DETAILS_PER_CONDITION_MAX = 5;

    public ConsistencyViolation {
        if (condition < 1 || condition > CONDITIONS) {
            throw new IllegalArgumentException("condition must be 1.." + CONDITIONS + ", got " + condition);
        }
    }

    @Override
    public String toString() {
        return "3.3.2." + condition + ": " + detail;
    }
}

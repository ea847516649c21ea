package org.elastras.experiments.tpcc;

/**
 * How big a TPC-C database is. {@link #spec(int)} gives the cardinalities of clause 4.3.3.1 /
 * clause 1.2 for W warehouses; {@link #scaledDown} shrinks ITEM/STOCK and the customers and
 * orders of a district for tests and quick runs. A scaled-down database is NOT spec-compliant
 * (results from it are not TPC-C results) and {@link #specCompliant()} says so. Immutable.
 *
 * @param warehouses W, at least 1
 * @param items rows of ITEM, and of STOCK per warehouse (spec: 100,000)
 * @param customersPerDistrict spec: 3,000; also the orders loaded per district (one per customer)
 * @param newOrdersPerDistrict the last loaded orders that are undelivered and in NEW_ORDER (spec: 900)
 */
public record TpccScale(int warehouses, int items, int customersPerDistrict, int newOrdersPerDistrict) {

    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int SPEC_ITEMS = 100_000;
    public static final int SPEC_CUSTOMERS_PER_DISTRICT = 3_000;
    public static final int SPEC_NEW_ORDERS_PER_DISTRICT = 900;
    /** Largest W this harness takes (a bound, not a spec limit). */
    public static final int WAREHOUSES_MAX = 10_000;
    /** Stock-Level looks at the last 20 orders of a district (clause 2.8.2.2); fewer would be odd. */
    public static final int CUSTOMERS_PER_DISTRICT_MIN = 20;

    public TpccScale {
        if (warehouses < 1 || warehouses > WAREHOUSES_MAX) {
            throw new IllegalArgumentException("warehouses must be 1.." + WAREHOUSES_MAX + ", got " + warehouses);
        }
        if (items < 100 || items > SPEC_ITEMS) {
            throw new IllegalArgumentException("items must be 100.." + SPEC_ITEMS + ", got " + items);
        }
        if (customersPerDistrict < CUSTOMERS_PER_DISTRICT_MIN || customersPerDistrict > SPEC_CUSTOMERS_PER_DISTRICT) {
            throw new IllegalArgumentException("customersPerDistrict must be " + CUSTOMERS_PER_DISTRICT_MIN + ".."
                    + SPEC_CUSTOMERS_PER_DISTRICT + ", got " + customersPerDistrict);
        }
        if (newOrdersPerDistrict < 1 || newOrdersPerDistrict >= customersPerDistrict) {
            throw new IllegalArgumentException("newOrdersPerDistrict must be 1..customersPerDistrict-1, got "
                    + newOrdersPerDistrict);
        }
    }

    /** The spec's cardinalities for W warehouses. */
    public static TpccScale spec(int warehouses) {
        return new TpccScale(warehouses, SPEC_ITEMS, SPEC_CUSTOMERS_PER_DISTRICT, SPEC_NEW_ORDERS_PER_DISTRICT);
    }

    /**
     * NOT SPEC-COMPLIANT: fewer items and customers, for tests and smoke runs. Keeps the spec's
     * ratio of undelivered orders (900 of 3,000 = 30%).
     */
    public static TpccScale scaledDown(int warehouses, int items, int customersPerDistrict) {
        return new TpccScale(warehouses, items, customersPerDistrict,
                Math.max(1, customersPerDistrict * SPEC_NEW_ORDERS_PER_DISTRICT / SPEC_CUSTOMERS_PER_DISTRICT));
    }

    public boolean specCompliant() {
        return items == SPEC_ITEMS && customersPerDistrict == SPEC_CUSTOMERS_PER_DISTRICT
                && newOrdersPerDistrict == SPEC_NEW_ORDERS_PER_DISTRICT;
    }

    /** Orders loaded per district: one per customer (clause 4.3.3.1). */
    public int ordersPerDistrict() {
        return customersPerDistrict;
    }

    /** The first undelivered loaded order id (spec: 2,101). */
    public int firstNewOrderId() {
        return ordersPerDistrict() - newOrdersPerDistrict + 1;
    }

    /** Distinct last names in use: the first min(1000, customers) customers get names 0..n-1 (clause 4.3.3.1). */
    public int lastNameNumbers() {
        return Math.min(1_000, customersPerDistrict);
    }

    /** E.g. "W=2, items=100000 (spec)" or "... NOT SPEC-COMPLIANT (scaled down)". */
    public String describe() {
        return "W=" + warehouses + ", items=" + items + ", customers/district=" + customersPerDistrict
                + ", new orders/district=" + newOrdersPerDistrict
                + (specCompliant() ? " (spec cardinalities)"
                : onlyItemsScaledDown() ? " NOT SPEC-COMPLIANT (ITEM and STOCK scaled down, the rest as the spec says)"
                : " NOT SPEC-COMPLIANT (scaled down for testing)");
    }

    private boolean onlyItemsScaledDown() {
        return items != SPEC_ITEMS && customersPerDistrict == SPEC_CUSTOMERS_PER_DISTRICT
                && newOrdersPerDistrict == SPEC_NEW_ORDERS_PER_DISTRICT;
    }
}

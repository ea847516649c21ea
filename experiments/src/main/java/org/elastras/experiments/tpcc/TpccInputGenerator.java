package org.elastras.experiments.tpcc;

import java.util.function.LongSupplier;

/**
 * Draws the inputs of one terminal's transactions (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1)
 * from a seed, so that drivers of every target share the same input sequence. The clock (for
 * O_ENTRY_D, H_DATE, OL_DELIVERY_D) is passed in. Not thread-safe: one per terminal.
 *
 * <p>Remote warehouses: 1% of New-Order lines (clause 2.4.1.5) take their stock from another
 * warehouse and 15% of Payments (clause 2.5.1.2) pay for a customer of another warehouse (any
 * district of it), the other warehouse drawn uniformly among the rest; with one warehouse every
 * access is local, as the spec says. With {@link RemoteWarehouses#ALL_LOCAL} the same draws are
 * made and the home warehouse is used instead ({@link #remoteChoicesMadeLocal()} counts how
 * often), so that both modes give the same sequence of inputs apart from those choices.
 *
 * <p>Scaled-down databases: C_ID is NURand(1023, 1, customers), OL_I_ID NURand(8191, 1, items)
 * and last names NURand(255, 0, min(999, customers - 1)), so every drawn name exists; at the spec's
 * cardinalities these are exactly the spec's functions.
 */
public final class TpccInputGenerator {

    /** H_ID of a Payment's row: stream in the high 32 bits, sequence in the low 31 (loaded rows use 1..3000). */
    private static final long HISTORY_SEQUENCE_MAX = (1L << 31) - 1;

    private final TpccScale scale;
    private final NuRandConstants run;
    private final TpccRandom random;
    private final LongSupplier clockMicros;
    private final int homeWarehouseId;
    private final int districtId;
    private final long historyStream;
    private final RemoteWarehouses remote;
    private long historySequence;
    private long remoteChoicesMadeLocal;

    /**
     * @param run the run-time NURand constants ({@link NuRandConstants#forRun})
     * @param homeWarehouseId the terminal's warehouse (clause 2.4.1.1: fixed per terminal)
     * @param districtId the terminal's district (Stock-Level's fixed district, clause 2.8.1.1)
     * @param historyStream 1..2^31-1, unique among every generator ever run against a database:
     *     Payment's HISTORY keys are (stream, sequence) and must not repeat
     * @param remote whether remote warehouse choices are kept (the spec) or made local
     */
    public TpccInputGenerator(TpccScale scale, NuRandConstants run, long seed, int homeWarehouseId, int districtId,
            int historyStream, RemoteWarehouses remote, LongSupplier clockMicros) {
        if (homeWarehouseId < 1 || homeWarehouseId > scale.warehouses() || districtId < 1
                || districtId > TpccScale.DISTRICTS_PER_WAREHOUSE) {
            throw new IllegalArgumentException("terminal (" + homeWarehouseId + ", " + districtId + ") is outside " + scale.describe());
        }
        if (historyStream < 1) {
            throw new IllegalArgumentException("historyStream must be positive, got " + historyStream);
        }
        this.scale = scale;
        this.run = run;
        this.random = new TpccRandom(seed);
        this.clockMicros = clockMicros;
        this.homeWarehouseId = homeWarehouseId;
        this.districtId = districtId;
        this.historyStream = historyStream;
        this.remote = java.util.Objects.requireNonNull(remote, "remote");
    }

    /** Remote warehouse choices drawn and then made local ({@link RemoteWarehouses#ALL_LOCAL}; 0 with SPEC). */
    public long remoteChoicesMadeLocal() {
        return remoteChoicesMadeLocal;
    }

    /** Clause 2.4.1: district uniform, customer NURand(1023), 5..15 lines, 1% rollback. */
    public TpccInputs.NewOrder newOrder() {
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int c = customerId();
        int lines = random.uniform(5, 15);
        boolean rollback = random.uniform(1, 100) == 1;
        int[] items = new int[lines];
        int[] supply = new int[lines];
        int[] quantities = new int[lines];
        for (int i = 0; i < lines; i++) {
            // Clause 2.4.1.4: on rollback the last line's item is an unused value.
            items[i] = rollback && i == lines - 1 ? scale.items() + 1 : random.nuRand(8191, 1, scale.items(), run.olIId());
            // Clause 2.4.1.5: 99% home, 1% a random other warehouse.
            supply[i] = random.uniform(1, 100) == 1 ? remoteOr(homeWarehouseId) : homeWarehouseId;
            quantities[i] = random.uniform(1, 10);
        }
        return new TpccInputs.NewOrder(homeWarehouseId, d, c, items, supply, quantities, clockMicros.getAsLong(), rollback);
    }

    /**
     * Clause 2.5.1: 85% a customer of the home district, 15% of a random district of another
     * warehouse; 60% by last name; 1.00..5,000.00.
     */
    public TpccInputs.Payment payment() {
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        int customerWarehouse = homeWarehouseId;
        int customerDistrict = d;
        if (random.uniform(1, 100) > 85) {
            customerWarehouse = remoteOr(homeWarehouseId);
            int remoteDistrict = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
            if (customerWarehouse != homeWarehouseId) {
                customerDistrict = remoteDistrict;
            }
        }
        TpccInputs.CustomerSelector customer = customerSelector();
        if (historySequence == HISTORY_SEQUENCE_MAX) {
            throw new IllegalStateException("history stream " + historyStream + " is exhausted; use a new stream");
        }
        historySequence++;
        return new TpccInputs.Payment(homeWarehouseId, d, customerWarehouse, customerDistrict, customer,
                random.uniformDecimal("1.00", "5000.00", 2), clockMicros.getAsLong(), (historyStream << 32) | historySequence);
    }

    /** Clause 2.6.1: district uniform, 60% by last name. */
    public TpccInputs.OrderStatus orderStatus() {
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        return new TpccInputs.OrderStatus(homeWarehouseId, d, customerSelector());
    }

    /** Clause 2.7.1: carrier 1..10. */
    public TpccInputs.Delivery delivery() {
        return new TpccInputs.Delivery(homeWarehouseId, random.uniform(1, 10), clockMicros.getAsLong());
    }

    /** Clause 2.8.1: the terminal's district, threshold 10..20. */
    public TpccInputs.StockLevel stockLevel() {
        return new TpccInputs.StockLevel(homeWarehouseId, districtId, random.uniform(10, 20));
    }

    /**
     * A warehouse other than {@code home}, uniform over the rest, when there is one and remote
     * choices are kept; else {@code home}. Draws one number whenever there are several warehouses,
     * in both modes, so that the modes' input sequences stay aligned.
     */
    private int remoteOr(int home) {
        if (scale.warehouses() == 1) {
            return home;
        }
        int other = random.uniform(1, scale.warehouses() - 1);
        if (remote == RemoteWarehouses.ALL_LOCAL) {
            remoteChoicesMadeLocal++;
            return home;
        }
        return other >= home ? other + 1 : other;
    }

    private int customerId() {
        return random.nuRand(1023, 1, scale.customersPerDistrict(), run.cId());
    }

    private TpccInputs.CustomerSelector customerSelector() {
        if (random.uniform(1, 100) <= 60) {
            return TpccInputs.CustomerSelector.byLastName(TpccRandom.lastName(
                    random.nuRand(255, 0, scale.lastNameNumbers() - 1, run.cLast())));
        }
        return TpccInputs.CustomerSelector.byId(customerId());
    }
}

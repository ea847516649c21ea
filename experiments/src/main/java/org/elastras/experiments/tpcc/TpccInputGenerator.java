package org.elastras.experiments.tpcc;

import java.util.function.LongSupplier;

/**
 * Draws the inputs of one terminal's transactions (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1)
 * from a seed, so that drivers of every target share the same input sequence. The clock (for
 * O_ENTRY_D, H_DATE, OL_DELIVERY_D) is passed in. Not thread-safe: one per terminal.
 *
 * <p>Remote warehouses: 1% of New-Order lines (clause 2.4.1.5) and 15% of Payments (clause
 * 2.5.1.2) should use another warehouse. Those need cross-partition transactions, which ElasTraS
 * does not have yet, so this generator draws the choice as the spec says and then keeps the home
 * warehouse; {@link #remoteChoicesMadeLocal()} counts how often. Results must carry the flag
 * "remote warehouse accesses: local (cross-partition transactions not built)".
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
    private long historySequence;
    private long remoteChoicesMadeLocal;

    /**
     * @param run the run-time NURand constants ({@link NuRandConstants#forRun})
     * @param homeWarehouseId the terminal's warehouse (clause 2.4.1.1: fixed per terminal)
     * @param districtId the terminal's district (Stock-Level's fixed district, clause 2.8.1.1)
     * @param historyStream 1..2^31-1, unique among every generator ever run against a database:
     *     Payment's HISTORY keys are (stream, sequence) and must not repeat
     */
    public TpccInputGenerator(TpccScale scale, NuRandConstants run, long seed, int homeWarehouseId, int districtId,
            int historyStream, LongSupplier clockMicros) {
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
    }

    /** Remote warehouse choices drawn and then made local (see the class comment). */
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
            // Clause 2.4.1.5: 99% home, 1% a random other warehouse (made local, see above).
            boolean remote = random.uniform(1, 100) == 1 && scale.warehouses() > 1;
            if (remote) {
                remoteChoicesMadeLocal++;
            }
            supply[i] = homeWarehouseId;
            quantities[i] = random.uniform(1, 10);
        }
        return new TpccInputs.NewOrder(homeWarehouseId, d, c, items, supply, quantities, clockMicros.getAsLong(), rollback);
    }

    /** Clause 2.5.1: 85% home district customer (15% remote, made local), 60% by last name, 1.00..5,000.00. */
    public TpccInputs.Payment payment() {
        int d = random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE);
        boolean remote = random.uniform(1, 100) > 85 && scale.warehouses() > 1;
        int customerDistrict = d;
        if (remote) {
            remoteChoicesMadeLocal++;
            random.uniform(1, TpccScale.DISTRICTS_PER_WAREHOUSE); // the remote C_D_ID draw, kept for the sequence
        }
        TpccInputs.CustomerSelector customer = customerSelector();
        if (historySequence == HISTORY_SEQUENCE_MAX) {
            throw new IllegalStateException("history stream " + historyStream + " is exhausted; use a new stream");
        }
        historySequence++;
        return new TpccInputs.Payment(homeWarehouseId, d, homeWarehouseId, customerDistrict, customer,
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

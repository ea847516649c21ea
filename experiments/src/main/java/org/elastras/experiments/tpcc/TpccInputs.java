package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.util.Arrays;

/**
 * The terminal inputs of the five transactions (clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1), as
 * {@link TpccInputGenerator} draws them. Immutable values (arrays are copied in and must not be
 * changed by readers).
 */
public final class TpccInputs {

    private TpccInputs() {
    }

    /** How a customer is selected (clause 2.5.1.2): by C_ID or by C_LAST. */
    public record CustomerSelector(int customerId, String lastName) {

        public CustomerSelector {
            if ((lastName == null) == (customerId <= 0)) {
                throw new IllegalArgumentException("select a customer by a positive id or by a last name, not both");
            }
        }

        public static CustomerSelector byId(int customerId) {
            return new CustomerSelector(customerId, null);
        }

        public static CustomerSelector byLastName(String lastName) {
            return new CustomerSelector(0, lastName);
        }

        public boolean byLastName() {
            return lastName != null;
        }
    }

    /**
     * New-Order (clause 2.4.1). {@code itemIds[i]}, {@code supplyWarehouseIds[i]} and
     * {@code quantities[i]} describe order line i + 1. When {@code rollback} is set, the last item
     * id is unused (clause 2.4.1.4) and the transaction must roll back.
     */
    public record NewOrder(int warehouseId, int districtId, int customerId, int[] itemIds, int[] supplyWarehouseIds,
            int[] quantities, long entryMicros, boolean rollback) {

        public NewOrder {
            if (itemIds.length < 5 || itemIds.length > 15 || supplyWarehouseIds.length != itemIds.length
                    || quantities.length != itemIds.length) {
                throw new IllegalArgumentException("a New-Order has 5..15 lines of item, supply warehouse and quantity, got "
                        + itemIds.length + "/" + supplyWarehouseIds.length + "/" + quantities.length);
            }
            itemIds = itemIds.clone();
            supplyWarehouseIds = supplyWarehouseIds.clone();
            quantities = quantities.clone();
        }

        public int lines() {
            return itemIds.length;
        }

        /** Lines supplied by a warehouse other than the home warehouse. */
        public int remoteLines() {
            return (int) Arrays.stream(supplyWarehouseIds).filter(s -> s != warehouseId).count();
        }

        /** O_ALL_LOCAL: 1 when every supply warehouse is the home warehouse. */
        public int allLocal() {
            return Arrays.stream(supplyWarehouseIds).allMatch(s -> s == warehouseId) ? 1 : 0;
        }
    }

    /**
     * Payment (clause 2.5.1). {@code historyId} is the synthetic key of the HISTORY row it inserts
     * ({@link TpccSchema}).
     */
    public record Payment(int warehouseId, int districtId, int customerWarehouseId, int customerDistrictId,
            CustomerSelector customer, BigDecimal amount, long dateMicros, long historyId) {
    }

    /** Order-Status (clause 2.6.1). */
    public record OrderStatus(int warehouseId, int districtId, CustomerSelector customer) {
    }

    /** Delivery (clause 2.7.1): all ten districts of a warehouse. */
    public record Delivery(int warehouseId, int carrierId, long deliveryMicros) {
    }

    /** Stock-Level (clause 2.8.1): the terminal's own district, a threshold of 10..20. */
    public record StockLevel(int warehouseId, int districtId, int threshold) {
    }
}

package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The arithmetic and text rules the five transactions share, written once so that the stored
 * procedures ({@link TpccProcedures}) and the JDBC transactions ({@link DerbyTpccTarget}) cannot
 * drift apart. Pure functions.
 */
final class TpccRules {

    /** C_DATA's length limit (clause 1.3.1, CUSTOMER). */
    static final int C_DATA_LENGTH_MAX = 500;
    /** New-Order's rollback message (clause 2.4.2.3). */
    static final String ITEM_NOT_VALID = "Item number is not valid";

    private TpccRules() {
    }

    /** Clause 2.4.2.2: S_QUANTITY after ordering {@code quantity} units. */
    static int stockQuantityAfter(int stockQuantity, int quantity) {
        return stockQuantity >= quantity + 10 ? stockQuantity - quantity : stockQuantity - quantity + 91;
    }

    /** Clause 2.4.2.2: OL_AMOUNT = OL_QUANTITY * I_PRICE. */
    static BigDecimal lineAmount(int quantity, BigDecimal price) {
        return price.multiply(BigDecimal.valueOf(quantity)).setScale(2, RoundingMode.UNNECESSARY);
    }

    /** Clause 2.4.2.2: 'B' when both I_DATA and S_DATA contain "ORIGINAL", else 'G'. */
    static String brandGeneric(String itemData, String stockData) {
        return itemData.contains(TpccRandom.ORIGINAL) && stockData.contains(TpccRandom.ORIGINAL) ? "B" : "G";
    }

    /** Clause 2.4.2.2: sum(OL_AMOUNT) * (1 - C_DISCOUNT) * (1 + W_TAX + D_TAX), to the cent. */
    static BigDecimal orderTotal(BigDecimal linesSum, BigDecimal discount, BigDecimal warehouseTax, BigDecimal districtTax) {
        return linesSum.multiply(BigDecimal.ONE.subtract(discount)).multiply(BigDecimal.ONE.add(warehouseTax).add(districtTax))
                .setScale(2, RoundingMode.HALF_UP);
    }

    /** Clause 2.5.2.2: H_DATA = W_NAME, four spaces, D_NAME. */
    static String historyData(String warehouseName, String districtName) {
        return warehouseName + "    " + districtName;
    }

    /**
     * Clause 2.5.2.2, bad credit: C_ID, C_D_ID, C_W_ID, D_ID, W_ID and H_AMOUNT inserted at the
     * left of C_DATA, the rest shifted right and cut at 500 characters.
     */
    static String badCreditData(int customerId, int customerDistrictId, int customerWarehouseId, int districtId,
            int warehouseId, BigDecimal amount, String oldData) {
        String s = customerId + " " + customerDistrictId + " " + customerWarehouseId + " " + districtId + " " + warehouseId
                + " " + amount.toPlainString() + " | " + oldData;
        return s.length() > C_DATA_LENGTH_MAX ? s.substring(0, C_DATA_LENGTH_MAX) : s;
    }

    /**
     * Clause 2.5.2.2 (and 2.6.2.2): of the n customers with the last name, sorted by C_FIRST, the
     * one at position n/2 rounded up (1-based), i.e. index (n - 1) / 2.
     */
    static int middleIndex(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("no customer has the last name");
        }
        return (n - 1) / 2;
    }

    /** Number of most recent orders Stock-Level examines (clause 2.8.2.2). */
    static final int STOCK_LEVEL_ORDERS = 20;
}

package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpccDataGeneratorTest {

    private static final TpccScale SCALE = TpccScale.scaledDown(1, 500, 60);

    private static Map<String, List<List<Object>>> generate(TpccDataGenerator g, int w) throws Exception {
        Map<String, List<List<Object>>> rows = new HashMap<>();
        g.warehouse(w, (table, row) -> rows.computeIfAbsent(table, t -> new ArrayList<>()).add(row));
        return rows;
    }

    @Test
    void scaledDownLoadHasTheSpecsCardinalitiesScaled() throws Exception {
        TpccDataGenerator g = new TpccDataGenerator(SCALE, 5, 1_000_000L);
        assertFalse(SCALE.specCompliant());
        assertEquals(18, SCALE.newOrdersPerDistrict()); // 60 * 900 / 3000
        Map<String, List<List<Object>>> rows = generate(g, 1);
        assertEquals(1, rows.get(TpccSchema.WAREHOUSE).size());
        assertEquals(500, rows.get(TpccSchema.STOCK).size());
        assertEquals(10, rows.get(TpccSchema.DISTRICT).size());
        assertEquals(600, rows.get(TpccSchema.CUSTOMER).size());
        assertEquals(600, rows.get(TpccSchema.CUSTOMER_BY_LAST).size());
        assertEquals(600, rows.get(TpccSchema.HISTORY).size());
        assertEquals(600, rows.get(TpccSchema.ORDERS).size());
        assertEquals(600, rows.get(TpccSchema.ORDERS_BY_CUSTOMER).size());
        assertEquals(180, rows.get(TpccSchema.NEW_ORDER).size());
        long lines = 0;
        Set<List<Object>> customersOfDistrict1 = new HashSet<>();
        for (List<Object> o : rows.get(TpccSchema.ORDERS)) {
            int count = (Integer) o.get(TpccSchema.O_OL_CNT);
            assertTrue(count >= 5 && count <= 15);
            lines += count;
            boolean delivered = (Integer) o.get(TpccSchema.O_ID) < SCALE.firstNewOrderId();
            assertEquals(delivered, o.get(TpccSchema.O_CARRIER_ID) != null);
            if ((Integer) o.get(TpccSchema.O_D_ID) == 1) {
                customersOfDistrict1.add(List.of(o.get(TpccSchema.O_C_ID)));
            }
        }
        assertEquals(60, customersOfDistrict1.size(), "O_C_ID is a permutation of the customers");
        assertEquals(lines, rows.get(TpccSchema.ORDER_LINE).size());
        for (List<Object> d : rows.get(TpccSchema.DISTRICT)) {
            assertEquals(61, d.get(TpccSchema.D_NEXT_O_ID));
            assertEquals(new BigDecimal("600.00"), d.get(TpccSchema.D_YTD));
        }
        assertEquals(new BigDecimal("6000.00"), rows.get(TpccSchema.WAREHOUSE).get(0).get(TpccSchema.W_YTD));
        // Clause 4.3.3.1: the first 1,000 customers' last names are lastName(C_ID - 1).
        List<Object> c7 = rows.get(TpccSchema.CUSTOMER).get(6);
        assertEquals(7, c7.get(TpccSchema.C_ID));
        assertEquals(TpccRandom.lastName(6), c7.get(TpccSchema.C_LAST));
        assertEquals(new BigDecimal("-10.00"), c7.get(TpccSchema.C_BALANCE));
        for (List<Object> ol : rows.get(TpccSchema.ORDER_LINE)) {
            if ((Integer) ol.get(TpccSchema.OL_O_ID) < SCALE.firstNewOrderId()) {
                assertEquals(new BigDecimal("0.00"), ol.get(TpccSchema.OL_AMOUNT));
            } else {
                assertNull(ol.get(TpccSchema.OL_DELIVERY_D));
            }
        }
        assertEquals(g.rowsPerWarehouseEstimate(), rows.values().stream().mapToLong(List::size).sum(), 10L * 600);
    }

    @Test
    void specScaleHasTheSpecsNumbers() {
        TpccScale spec = TpccScale.spec(3);
        assertTrue(spec.specCompliant());
        assertEquals(2_101, spec.firstNewOrderId());
        assertEquals(3_001, spec.ordersPerDistrict() + 1);
        assertEquals(new BigDecimal("30000.00"), new TpccDataGenerator(spec, 1, 0).districtYtdInitial());
        assertEquals(new BigDecimal("300000.00"), new TpccDataGenerator(spec, 1, 0).warehouseYtdInitial());
    }

    @Test
    void itemsHaveTenPercentOriginalAndValidPrices() {
        List<List<Object>> items = new TpccDataGenerator(TpccScale.scaledDown(1, 20_000, 30), 11, 0).items();
        assertEquals(20_000, items.size());
        long original = items.stream().filter(i -> ((String) i.get(TpccSchema.I_DATA)).contains("ORIGINAL")).count();
        assertTrue(original > 1_800 && original < 2_200, "ORIGINAL items " + original);
        for (List<Object> i : items) {
            BigDecimal price = (BigDecimal) i.get(TpccSchema.I_PRICE);
            assertTrue(price.compareTo(BigDecimal.ONE) >= 0 && price.compareTo(new BigDecimal("100")) <= 0);
        }
    }

    @Test
    void generationIsDeterministicBySeed() throws Exception {
        TpccDataGenerator a = new TpccDataGenerator(SCALE, 5, 77);
        TpccDataGenerator b = new TpccDataGenerator(SCALE, 5, 77);
        TpccDataGenerator c = new TpccDataGenerator(SCALE, 6, 77);
        assertEquals(generate(a, 1), generate(b, 1));
        assertNotEquals(generate(a, 1), generate(c, 1));
        assertEquals(a.items(), b.items());
    }
}

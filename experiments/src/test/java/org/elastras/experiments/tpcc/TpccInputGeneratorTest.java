package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TpccInputGeneratorTest {

    private static final TpccScale SPEC = TpccScale.spec(4);
    private static final NuRandConstants RUN = NuRandConstants.forLoad(5).forRun(5);

    @Test
    void newOrderInputsFollowClause241() {
        TpccInputGenerator g = new TpccInputGenerator(SPEC, RUN, 1, 3, 2, 1, () -> 42L);
        int rollbacks = 0;
        int n = 20_000;
        for (int i = 0; i < n; i++) {
            TpccInputs.NewOrder o = g.newOrder();
            assertEquals(3, o.warehouseId());
            assertTrue(o.districtId() >= 1 && o.districtId() <= 10);
            assertTrue(o.customerId() >= 1 && o.customerId() <= 3_000);
            assertTrue(o.lines() >= 5 && o.lines() <= 15);
            for (int l = 0; l < o.lines(); l++) {
                boolean unused = o.rollback() && l == o.lines() - 1;
                assertEquals(unused, o.itemIds()[l] == 100_001, "only the last line of a rollback has the unused item");
                assertTrue(o.quantities()[l] >= 1 && o.quantities()[l] <= 10);
                assertEquals(3, o.supplyWarehouseIds()[l], "remote supply is made local for now");
            }
            assertEquals(1, o.allLocal());
            rollbacks += o.rollback() ? 1 : 0;
        }
        assertTrue(rollbacks > 0.007 * n && rollbacks < 0.013 * n, "rollbacks " + rollbacks);
        // About 1% of ~10 lines a order were drawn remote and made local.
        assertTrue(g.remoteChoicesMadeLocal() > 0.05 * n && g.remoteChoicesMadeLocal() < 0.15 * n,
                "remote lines made local " + g.remoteChoicesMadeLocal());
    }

    @Test
    void paymentsAreSixtyPercentByLastNameWithUniqueHistoryIds() {
        TpccInputGenerator g = new TpccInputGenerator(SPEC, RUN, 2, 1, 1, 7, () -> 42L);
        int byName = 0;
        int n = 20_000;
        Set<Long> historyIds = new HashSet<>();
        for (int i = 0; i < n; i++) {
            TpccInputs.Payment p = g.payment();
            assertEquals(1, p.customerWarehouseId());
            assertEquals(p.districtId(), p.customerDistrictId());
            assertTrue(p.amount().compareTo(BigDecimal.ONE) >= 0 && p.amount().compareTo(new BigDecimal("5000")) <= 0);
            assertTrue(historyIds.add(p.historyId()));
            assertEquals(7L, p.historyId() >>> 32);
            if (p.customer().byLastName()) {
                byName++;
                assertTrue(p.customer().lastName().matches("(BAR|OUGHT|ABLE|PRI|PRES|ESE|ANTI|CALLY|ATION|EING){3}"));
            }
        }
        assertTrue(byName > 0.58 * n && byName < 0.62 * n, "by last name " + byName);
        assertTrue(g.remoteChoicesMadeLocal() > 0.13 * n && g.remoteChoicesMadeLocal() < 0.17 * n);
    }

    @Test
    void scaledDownLastNamesAllExist() {
        TpccScale small = TpccScale.scaledDown(1, 200, 30);
        TpccInputGenerator g = new TpccInputGenerator(small, RUN, 3, 1, 1, 1, () -> 0L);
        for (int i = 0; i < 2_000; i++) {
            TpccInputs.OrderStatus s = g.orderStatus();
            if (s.customer().byLastName()) {
                boolean found = false;
                for (int c = 0; c < 30; c++) {
                    found |= TpccRandom.lastName(c).equals(s.customer().lastName());
                }
                assertTrue(found, s.customer().lastName());
            } else {
                assertTrue(s.customer().customerId() <= 30);
            }
        }
    }

    @Test
    void theDeckKeepsTheMixExactlyPerHundred() {
        TransactionMix mix = new TransactionMix(9);
        for (int round = 0; round < 5; round++) {
            Map<TransactionType, Integer> counts = new EnumMap<>(TransactionType.class);
            for (int i = 0; i < 100; i++) {
                counts.merge(mix.next(), 1, Integer::sum);
            }
            assertEquals(Map.of(TransactionType.NEW_ORDER, 45, TransactionType.PAYMENT, 43, TransactionType.ORDER_STATUS, 4,
                    TransactionType.DELIVERY, 4, TransactionType.STOCK_LEVEL, 4), counts);
        }
    }

    @Test
    void deliveryAndStockLevelInputsAreInRange() {
        TpccInputGenerator g = new TpccInputGenerator(SPEC, RUN, 4, 2, 9, 1, () -> 42L);
        for (int i = 0; i < 1_000; i++) {
            TpccInputs.Delivery d = g.delivery();
            assertTrue(d.carrierId() >= 1 && d.carrierId() <= 10);
            TpccInputs.StockLevel s = g.stockLevel();
            assertEquals(9, s.districtId());
            assertTrue(s.threshold() >= 10 && s.threshold() <= 20);
        }
    }
}

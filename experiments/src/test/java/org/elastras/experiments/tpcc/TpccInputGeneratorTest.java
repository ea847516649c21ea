package org.elastras.experiments.tpcc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
        TpccInputGenerator g = new TpccInputGenerator(SPEC, RUN, 1, 3, 2, 1, RemoteWarehouses.SPEC, () -> 42L);
        int rollbacks = 0;
        int n = 20_000;
        long lines = 0;
        long remoteLines = 0;
        long remoteOrders = 0;
        int[] remoteBySupplier = new int[SPEC.warehouses() + 1];
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
                int supply = o.supplyWarehouseIds()[l];
                assertTrue(supply >= 1 && supply <= SPEC.warehouses(), "supply warehouse " + supply);
                lines++;
                if (supply != 3) {
                    remoteLines++;
                    remoteBySupplier[supply]++;
                }
            }
            assertEquals(o.remoteLines() == 0 ? 1 : 0, o.allLocal(), "O_ALL_LOCAL");
            remoteOrders += o.remoteLines() > 0 ? 1 : 0;
            rollbacks += o.rollback() ? 1 : 0;
        }
        assertTrue(rollbacks > 0.007 * n && rollbacks < 0.013 * n, "rollbacks " + rollbacks);
        // Clause 2.4.1.5: 1% of lines (about 200,000 lines here, so 2,000 +- 3 sigma = 135) from
        // another warehouse, uniformly among the three others; about 10% of orders have one.
        double remoteShare = (double) remoteLines / lines;
        assertTrue(remoteShare > 0.009 && remoteShare < 0.011, "remote line share " + remoteShare + " of " + lines);
        assertTrue(remoteOrders > 0.08 * n && remoteOrders < 0.12 * n, "orders with a remote line " + remoteOrders);
        for (int w : new int[] {1, 2, 4}) {
            assertTrue(remoteBySupplier[w] > remoteLines / 3 * 0.85 && remoteBySupplier[w] < remoteLines / 3 * 1.15,
                    "remote lines supplied by warehouse " + w + ": " + remoteBySupplier[w] + " of " + remoteLines);
        }
        assertEquals(0, remoteBySupplier[3]);
        assertEquals(0, g.remoteChoicesMadeLocal());
    }

    @Test
    void allLocalDrawsTheSameInputsAndKeepsTheHomeWarehouse() {
        TpccInputGenerator spec = new TpccInputGenerator(SPEC, RUN, 11, 2, 5, 1, RemoteWarehouses.SPEC, () -> 42L);
        TpccInputGenerator local = new TpccInputGenerator(SPEC, RUN, 11, 2, 5, 1, RemoteWarehouses.ALL_LOCAL, () -> 42L);
        long remoteChoices = 0;
        for (int i = 0; i < 5_000; i++) {
            TpccInputs.NewOrder a = spec.newOrder();
            TpccInputs.NewOrder b = local.newOrder();
            assertArrayEquals(a.itemIds(), b.itemIds());
            assertArrayEquals(a.quantities(), b.quantities());
            assertEquals(a.customerId(), b.customerId());
            assertEquals(0, b.remoteLines());
            assertEquals(1, b.allLocal());
            remoteChoices += a.remoteLines();
            TpccInputs.Payment p = spec.payment();
            TpccInputs.Payment q = local.payment();
            assertEquals(p.amount(), q.amount());
            assertEquals(p.customer(), q.customer());
            assertEquals(p.historyId(), q.historyId());
            assertEquals(2, q.customerWarehouseId());
            assertEquals(q.districtId(), q.customerDistrictId());
            remoteChoices += p.customerWarehouseId() != 2 ? 1 : 0;
        }
        assertTrue(remoteChoices > 0);
        assertEquals(remoteChoices, local.remoteChoicesMadeLocal());
        assertEquals(0, spec.remoteChoicesMadeLocal());
    }

    @Test
    void oneWarehouseHasNoRemoteAccesses() {
        TpccInputGenerator g = new TpccInputGenerator(TpccScale.spec(1), RUN, 12, 1, 1, 1, RemoteWarehouses.SPEC, () -> 42L);
        for (int i = 0; i < 2_000; i++) {
            assertEquals(0, g.newOrder().remoteLines());
            TpccInputs.Payment only = g.payment();
            assertEquals(1, only.customerWarehouseId());
            assertEquals(only.districtId(), only.customerDistrictId());
        }
        assertEquals(0, g.remoteChoicesMadeLocal());
    }

    @Test
    void paymentsAreSixtyPercentByLastNameWithUniqueHistoryIds() {
        TpccInputGenerator g = new TpccInputGenerator(SPEC, RUN, 2, 1, 1, 7, RemoteWarehouses.SPEC, () -> 42L);
        int byName = 0;
        int remote = 0;
        int[] remoteDistricts = new int[TpccScale.DISTRICTS_PER_WAREHOUSE + 1];
        int n = 20_000;
        Set<Long> historyIds = new HashSet<>();
        for (int i = 0; i < n; i++) {
            TpccInputs.Payment p = g.payment();
            assertTrue(p.customerWarehouseId() >= 1 && p.customerWarehouseId() <= SPEC.warehouses());
            if (p.customerWarehouseId() == 1) {
                assertEquals(p.districtId(), p.customerDistrictId(), "a home customer is of the home district");
            } else {
                remote++;
                remoteDistricts[p.customerDistrictId()]++;
            }
            assertTrue(p.amount().compareTo(BigDecimal.ONE) >= 0 && p.amount().compareTo(new BigDecimal("5000")) <= 0);
            assertTrue(historyIds.add(p.historyId()));
            assertEquals(7L, p.historyId() >>> 32);
            if (p.customer().byLastName()) {
                byName++;
                assertTrue(p.customer().lastName().matches("(BAR|OUGHT|ABLE|PRI|PRES|ESE|ANTI|CALLY|ATION|EING){3}"));
            }
        }
        assertTrue(byName > 0.58 * n && byName < 0.62 * n, "by last name " + byName);
        // Clause 2.5.1.2: 15% remote (3,000 of 20,000 +- 3 sigma = 150), any district of the other warehouse.
        assertTrue(remote > 0.1425 * n && remote < 0.1575 * n, "remote payments " + remote);
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            assertTrue(remoteDistricts[d] > remote / 10 * 0.75 && remoteDistricts[d] < remote / 10 * 1.25,
                    "remote payments to district " + d + ": " + remoteDistricts[d]);
        }
        assertEquals(0, g.remoteChoicesMadeLocal());
    }

    @Test
    void scaledDownLastNamesAllExist() {
        TpccScale small = TpccScale.scaledDown(1, 200, 30);
        TpccInputGenerator g = new TpccInputGenerator(small, RUN, 3, 1, 1, 1, RemoteWarehouses.SPEC, () -> 0L);
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
        TpccInputGenerator g = new TpccInputGenerator(SPEC, RUN, 4, 2, 9, 1, RemoteWarehouses.SPEC, () -> 42L);
        for (int i = 0; i < 1_000; i++) {
            TpccInputs.Delivery d = g.delivery();
            assertTrue(d.carrierId() >= 1 && d.carrierId() <= 10);
            TpccInputs.StockLevel s = g.stockLevel();
            assertEquals(9, s.districtId());
            assertTrue(s.threshold() >= 10 && s.threshold() <= 20);
        }
    }
}

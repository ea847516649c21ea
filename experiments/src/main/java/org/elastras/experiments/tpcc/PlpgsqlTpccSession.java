package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * One terminal of {@link PostgresTpccTarget}'s PL/pgSQL mode: each transaction is one call of its
 * function ({@code tpcc/postgres-functions.sql}) in autocommit, so one round trip. Two connections:
 * one at the target's isolation for New-Order, Payment, Order-Status and Delivery, one at READ
 * COMMITTED for Stock-Level (so no call pays for switching). A call that fails with a
 * serialization failure or deadlock runs again as {@link PostgresTpccTarget#RETRY} says. Not thread-safe.
 */
final class PlpgsqlTpccSession implements TpccTarget.Session {

    private final Connection writers;
    private final Connection readCommitted;
    private final PreparedStatement newOrder;
    private final PreparedStatement payment;
    private final PreparedStatement orderStatus;
    private final PreparedStatement delivery;
    private final PreparedStatement stockLevel;

    /** Takes both connections (closed with the session); each is set to autocommit here. */
    PlpgsqlTpccSession(Connection writers, Connection readCommitted) throws SQLException {
        this.writers = writers;
        this.readCommitted = readCommitted;
        writers.setAutoCommit(true);
        readCommitted.setAutoCommit(true);
        newOrder = writers.prepareStatement("SELECT out_o_id, out_total FROM tpcc_new_order(?, ?, ?, ?, ?, ?, ?)");
        payment = writers.prepareStatement("SELECT out_c_id, out_balance FROM tpcc_payment(?, ?, ?, ?, ?, ?, ?, ?, ?)");
        orderStatus = writers.prepareStatement(
                "SELECT out_c_id, out_balance, out_o_id, out_carrier, out_lines FROM tpcc_order_status(?, ?, ?, ?)");
        delivery = writers.prepareStatement("SELECT tpcc_delivery(?, ?, ?)");
        stockLevel = readCommitted.prepareStatement("SELECT tpcc_stock_level(?, ?, ?)");
    }

    /** A call's body: binds, executes and reads the one result row. */
    private interface Call<T> {
        T run(int attempt) throws SQLException;
    }

    private static <T> T call(Call<T> call) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.run(attempt);
            } catch (SQLException e) {
                if (!PostgresTpccTarget.RETRY.again(e, attempt)) {
                    throw e;
                }
            }
        }
    }

    private static ResultSet one(PreparedStatement p) throws SQLException {
        ResultSet r = p.executeQuery();
        if (!r.next()) {
            r.close();
            throw new IllegalStateException("a TPC-C function returned no row: " + p);
        }
        return r;
    }

    private Array ints(int[] values) throws SQLException {
        Integer[] boxed = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            boxed[i] = values[i];
        }
        return writers.createArrayOf("int4", boxed);
    }

    @Override
    public TpccTarget.NewOrderResult newOrder(TpccInputs.NewOrder in) throws SQLException {
        Array items = ints(java.util.Arrays.copyOf(in.itemIds(), in.lines()));
        Array supply = ints(java.util.Arrays.copyOf(in.supplyWarehouseIds(), in.lines()));
        Array quantities = ints(java.util.Arrays.copyOf(in.quantities(), in.lines()));
        return call(attempt -> {
            newOrder.setInt(1, in.warehouseId());
            newOrder.setInt(2, in.districtId());
            newOrder.setInt(3, in.customerId());
            newOrder.setTimestamp(4, SqlRows.timestamp(in.entryMicros()));
            newOrder.setArray(5, items);
            newOrder.setArray(6, supply);
            newOrder.setArray(7, quantities);
            try (ResultSet r = one(newOrder)) {
                return new TpccTarget.NewOrderResult(false, r.getInt(1), r.getBigDecimal(2), attempt);
            } catch (SQLException e) {
                if (PostgresTpccTarget.ITEM_NOT_VALID_STATE.equals(e.getSQLState())) {
                    // Clause 2.4.2.3: the function raised, so the whole transaction rolled back.
                    return new TpccTarget.NewOrderResult(true, 0, BigDecimal.ZERO, attempt);
                }
                throw e;
            }
        });
    }

    @Override
    public TpccTarget.PaymentResult payment(TpccInputs.Payment in) throws SQLException {
        return call(attempt -> {
            payment.setInt(1, in.warehouseId());
            payment.setInt(2, in.districtId());
            payment.setInt(3, in.customerWarehouseId());
            payment.setInt(4, in.customerDistrictId());
            payment.setInt(5, in.customer().customerId());
            if (in.customer().byLastName()) {
                payment.setString(6, in.customer().lastName());
            } else {
                payment.setNull(6, Types.VARCHAR);
            }
            payment.setBigDecimal(7, in.amount());
            payment.setTimestamp(8, SqlRows.timestamp(in.dateMicros()));
            payment.setLong(9, in.historyId());
            try (ResultSet r = one(payment)) {
                return new TpccTarget.PaymentResult(r.getInt(1), r.getBigDecimal(2), attempt);
            }
        });
    }

    @Override
    public TpccTarget.OrderStatusResult orderStatus(TpccInputs.OrderStatus in) throws SQLException {
        return call(attempt -> {
            orderStatus.setInt(1, in.warehouseId());
            orderStatus.setInt(2, in.districtId());
            orderStatus.setInt(3, in.customer().customerId());
            if (in.customer().byLastName()) {
                orderStatus.setString(4, in.customer().lastName());
            } else {
                orderStatus.setNull(4, Types.VARCHAR);
            }
            try (ResultSet r = one(orderStatus)) {
                int carrier = r.getInt(4);
                Integer carrierId = r.wasNull() ? null : carrier;
                return new TpccTarget.OrderStatusResult(r.getInt(1), r.getBigDecimal(2), r.getInt(3), carrierId, r.getInt(5),
                        attempt);
            }
        });
    }

    @Override
    public TpccTarget.DeliveryResult delivery(TpccInputs.Delivery in) throws SQLException {
        return call(attempt -> {
            delivery.setInt(1, in.warehouseId());
            delivery.setInt(2, in.carrierId());
            delivery.setTimestamp(3, SqlRows.timestamp(in.deliveryMicros()));
            try (ResultSet r = one(delivery)) {
                List<Integer> delivered = new ArrayList<>(TpccScale.DISTRICTS_PER_WAREHOUSE);
                for (Object o : (Object[]) r.getArray(1).getArray()) {
                    delivered.add(((Number) o).intValue());
                }
                return new TpccTarget.DeliveryResult(delivered, attempt);
            }
        });
    }

    @Override
    public TpccTarget.StockLevelResult stockLevel(TpccInputs.StockLevel in) throws SQLException {
        return call(attempt -> {
            stockLevel.setInt(1, in.warehouseId());
            stockLevel.setInt(2, in.districtId());
            stockLevel.setInt(3, in.threshold());
            try (ResultSet r = one(stockLevel)) {
                return new TpccTarget.StockLevelResult(r.getInt(1), attempt);
            }
        });
    }

    @Override
    public void close() throws SQLException {
        try {
            writers.close();
        } finally {
            readCommitted.close();
        }
    }
}

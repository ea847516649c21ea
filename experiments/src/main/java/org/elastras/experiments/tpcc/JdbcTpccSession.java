package org.elastras.experiments.tpcc;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One terminal's JDBC connection to an SQL baseline ({@link DerbyTpccTarget}, the interactive mode
 * of {@link PostgresTpccTarget}): the five transactions as prepared statements, one round trip per
 * statement, the same steps as {@link TpccProcedures}. New-Order, Payment, Delivery and
 * Order-Status run at the target's isolation for them; Stock-Level at READ COMMITTED (clause 3.4.1
 * allows it). A transaction the database aborted in a way a retry may fix (the target says which)
 * rolls back and runs again, bounded. Not thread-safe.
 */
final class JdbcTpccSession implements TpccTarget.Session {

    private final Connection c;
    private final int writersIsolation;
    private final SqlRetry retry;
    /** The connection's isolation as last set here (asking the driver may cost a round trip). */
    private int isolation;
    private final List<PreparedStatement> statements = new ArrayList<>();

    private final PreparedStatement warehouseTax;
    private final PreparedStatement districtNext;
    private final PreparedStatement districtRead;
    private final PreparedStatement customerRead;
    private final PreparedStatement orderInsert;
    private final PreparedStatement newOrderInsert;
    private final PreparedStatement itemRead;
    private final PreparedStatement[] stockRead = new PreparedStatement[TpccScale.DISTRICTS_PER_WAREHOUSE];
    private final PreparedStatement stockUpdate;
    private final PreparedStatement lineInsert;

    private final PreparedStatement warehousePay;
    private final PreparedStatement warehouseName;
    private final PreparedStatement districtPay;
    private final PreparedStatement districtName;
    private final PreparedStatement customersByLast;
    private final PreparedStatement customerForPayment;
    private final PreparedStatement customerPay;
    private final PreparedStatement historyInsert;

    private final PreparedStatement customerBalance;
    private final PreparedStatement newestOrder;
    private final PreparedStatement orderCarrier;
    private final PreparedStatement orderLines;

    private final PreparedStatement oldestNewOrder;
    private final PreparedStatement newOrderDelete;
    private final PreparedStatement orderCustomer;
    private final PreparedStatement orderDeliver;
    private final PreparedStatement linesDeliver;
    private final PreparedStatement linesSum;
    private final PreparedStatement customerDeliver;

    private final PreparedStatement districtNextRead;
    private final PreparedStatement lowStock;

    /**
     * @param c a connection with autocommit off, at {@code writersIsolation}
     * @param writersIsolation the JDBC isolation of New-Order, Payment, Delivery and Order-Status
     * @param retry when a transaction the database rolled back runs again
     */
    JdbcTpccSession(Connection c, int writersIsolation, SqlRetry retry) throws SQLException {
        this.c = c;
        this.writersIsolation = writersIsolation;
        this.retry = retry;
        this.isolation = c.getTransactionIsolation();
        warehouseTax = prepare("SELECT W_TAX FROM WAREHOUSE WHERE W_ID = ?");
        districtNext = prepare("UPDATE DISTRICT SET D_NEXT_O_ID = D_NEXT_O_ID + 1 WHERE W_ID = ? AND D_ID = ?");
        districtRead = prepare("SELECT D_NEXT_O_ID - 1, D_TAX FROM DISTRICT WHERE W_ID = ? AND D_ID = ?");
        customerRead = prepare("SELECT C_DISCOUNT, C_LAST, C_CREDIT FROM CUSTOMER WHERE W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        orderInsert = prepare("INSERT INTO ORDERS (W_ID, O_D_ID, O_ID, O_C_ID, O_ENTRY_D, O_CARRIER_ID, O_OL_CNT, O_ALL_LOCAL)"
                + " VALUES (?, ?, ?, ?, ?, NULL, ?, ?)");
        newOrderInsert = prepare("INSERT INTO NEW_ORDER (W_ID, NO_D_ID, NO_O_ID) VALUES (?, ?, ?)");
        itemRead = prepare("SELECT I_PRICE, I_NAME, I_DATA FROM ITEM WHERE I_ID = ?");
        for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
            stockRead[d - 1] = prepare("SELECT S_QUANTITY, " + TpccSchema.distColumn(d) + ", S_DATA FROM STOCK"
                    + " WHERE W_ID = ? AND S_I_ID = ? FOR UPDATE");
        }
        stockUpdate = prepare("UPDATE STOCK SET S_QUANTITY = ?, S_YTD = S_YTD + ?, S_ORDER_CNT = S_ORDER_CNT + 1,"
                + " S_REMOTE_CNT = S_REMOTE_CNT + ? WHERE W_ID = ? AND S_I_ID = ?");
        lineInsert = prepare("INSERT INTO ORDER_LINE (W_ID, OL_D_ID, OL_O_ID, OL_NUMBER, OL_I_ID, OL_SUPPLY_W_ID, OL_DELIVERY_D,"
                + " OL_QUANTITY, OL_AMOUNT, OL_DIST_INFO) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)");

        warehousePay = prepare("UPDATE WAREHOUSE SET W_YTD = W_YTD + ? WHERE W_ID = ?");
        warehouseName = prepare("SELECT W_NAME FROM WAREHOUSE WHERE W_ID = ?");
        districtPay = prepare("UPDATE DISTRICT SET D_YTD = D_YTD + ? WHERE W_ID = ? AND D_ID = ?");
        districtName = prepare("SELECT D_NAME FROM DISTRICT WHERE W_ID = ? AND D_ID = ?");
        customersByLast = prepare("SELECT C_ID FROM CUSTOMER WHERE W_ID = ? AND C_D_ID = ? AND C_LAST = ? ORDER BY C_FIRST, C_ID");
        customerForPayment = prepare("SELECT C_BALANCE, C_YTD_PAYMENT, C_PAYMENT_CNT, C_CREDIT, C_DATA FROM CUSTOMER"
                + " WHERE W_ID = ? AND C_D_ID = ? AND C_ID = ? FOR UPDATE");
        customerPay = prepare("UPDATE CUSTOMER SET C_BALANCE = ?, C_YTD_PAYMENT = ?, C_PAYMENT_CNT = ?, C_DATA = ?"
                + " WHERE W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        historyInsert = prepare("INSERT INTO HISTORY (W_ID, H_D_ID, H_ID, H_C_ID, H_C_D_ID, H_C_W_ID, H_DATE, H_AMOUNT, H_DATA)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");

        customerBalance = prepare("SELECT C_BALANCE, C_FIRST, C_MIDDLE, C_LAST FROM CUSTOMER WHERE W_ID = ? AND C_D_ID = ? AND C_ID = ?");
        newestOrder = prepare("SELECT MAX(O_ID) FROM ORDERS WHERE W_ID = ? AND O_D_ID = ? AND O_C_ID = ?");
        orderCarrier = prepare("SELECT O_CARRIER_ID, O_ENTRY_D FROM ORDERS WHERE W_ID = ? AND O_D_ID = ? AND O_ID = ?");
        orderLines = prepare("SELECT OL_I_ID, OL_SUPPLY_W_ID, OL_QUANTITY, OL_AMOUNT, OL_DELIVERY_D FROM ORDER_LINE"
                + " WHERE W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?");

        oldestNewOrder = prepare("SELECT MIN(NO_O_ID) FROM NEW_ORDER WHERE W_ID = ? AND NO_D_ID = ?");
        newOrderDelete = prepare("DELETE FROM NEW_ORDER WHERE W_ID = ? AND NO_D_ID = ? AND NO_O_ID = ?");
        orderCustomer = prepare("SELECT O_C_ID FROM ORDERS WHERE W_ID = ? AND O_D_ID = ? AND O_ID = ?");
        orderDeliver = prepare("UPDATE ORDERS SET O_CARRIER_ID = ? WHERE W_ID = ? AND O_D_ID = ? AND O_ID = ?");
        linesDeliver = prepare("UPDATE ORDER_LINE SET OL_DELIVERY_D = ? WHERE W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?");
        linesSum = prepare("SELECT SUM(OL_AMOUNT) FROM ORDER_LINE WHERE W_ID = ? AND OL_D_ID = ? AND OL_O_ID = ?");
        customerDeliver = prepare("UPDATE CUSTOMER SET C_BALANCE = C_BALANCE + ?, C_DELIVERY_CNT = C_DELIVERY_CNT + 1"
                + " WHERE W_ID = ? AND C_D_ID = ? AND C_ID = ?");

        districtNextRead = prepare("SELECT D_NEXT_O_ID FROM DISTRICT WHERE W_ID = ? AND D_ID = ?");
        lowStock = prepare("SELECT COUNT(DISTINCT S.S_I_ID) FROM ORDER_LINE OL, STOCK S WHERE OL.W_ID = ? AND OL.OL_D_ID = ?"
                + " AND OL.OL_O_ID >= ? AND OL.OL_O_ID < ? AND S.W_ID = OL.W_ID AND S.S_I_ID = OL.OL_I_ID AND S.S_QUANTITY < ?");
    }

    private PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement p = c.prepareStatement(sql);
        statements.add(p);
        return p;
    }

    /** A transaction body; returns its result, or null after rolling back on purpose. */
    private interface Body<T> {
        T run(int attempt) throws SQLException;
    }

    /** Runs {@code body} as one transaction, again when {@link #retry} says so. */
    private <T> T transaction(int isolation, Body<T> body) throws SQLException {
        if (this.isolation != isolation) {
            c.setTransactionIsolation(isolation);
            this.isolation = isolation;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                T result = body.run(attempt);
                c.commit();
                return result;
            } catch (SQLException e) {
                c.rollback();
                if (!retry.again(e, attempt)) {
                    throw e;
                }
            }
        }
    }

    @Override
    public TpccTarget.NewOrderResult newOrder(TpccInputs.NewOrder in) throws SQLException {
        return transaction(writersIsolation, attempt -> {
            int w = in.warehouseId();
            int d = in.districtId();
            BigDecimal wTax = one(bind(warehouseTax, w)).getBigDecimal(1);
            if (bind(districtNext, w, d).executeUpdate() != 1) {
                throw new IllegalStateException("no district (" + w + ", " + d + ")");
            }
            ResultSet district = one(bind(districtRead, w, d));
            int orderId = district.getInt(1);
            BigDecimal dTax = district.getBigDecimal(2);
            ResultSet customer = one(bind(customerRead, w, d, in.customerId()));
            BigDecimal discount = customer.getBigDecimal(1);
            bind(orderInsert, w, d, orderId, in.customerId(), SqlRows.timestamp(in.entryMicros()), in.lines(),
                    in.allLocal()).executeUpdate();
            bind(newOrderInsert, w, d, orderId).executeUpdate();
            BigDecimal sum = BigDecimal.ZERO;
            for (int l = 0; l < in.lines(); l++) {
                int itemId = in.itemIds()[l];
                int supplyW = in.supplyWarehouseIds()[l];
                int quantity = in.quantities()[l];
                BigDecimal price;
                try (ResultSet item = bind(itemRead, itemId).executeQuery()) {
                    if (!item.next()) {
                        // Clause 2.4.2.3: an unused item id rolls the whole transaction back.
                        c.rollback();
                        return new TpccTarget.NewOrderResult(true, orderId, BigDecimal.ZERO, attempt);
                    }
                    price = item.getBigDecimal(1);
                    item.getString(3);
                }
                int stockQuantity;
                String distInfo;
                try (ResultSet stock = bind(stockRead[d - 1], supplyW, itemId).executeQuery()) {
                    if (!stock.next()) {
                        throw new IllegalStateException("no stock (" + supplyW + ", " + itemId + ")");
                    }
                    stockQuantity = stock.getInt(1);
                    distInfo = stock.getString(2);
                    stock.getString(3);
                }
                bind(stockUpdate, TpccRules.stockQuantityAfter(stockQuantity, quantity), quantity, supplyW == w ? 0 : 1,
                        supplyW, itemId).executeUpdate();
                BigDecimal amount = TpccRules.lineAmount(quantity, price);
                sum = sum.add(amount);
                bind(lineInsert, w, d, orderId, l + 1, itemId, supplyW, quantity, amount, distInfo).executeUpdate();
            }
            return new TpccTarget.NewOrderResult(false, orderId, TpccRules.orderTotal(sum, discount, wTax, dTax), attempt);
        });
    }

    @Override
    public TpccTarget.PaymentResult payment(TpccInputs.Payment in) throws SQLException {
        return transaction(writersIsolation, attempt -> {
            int w = in.warehouseId();
            int d = in.districtId();
            bind(warehousePay, in.amount(), w).executeUpdate();
            String wName = one(bind(warehouseName, w)).getString(1);
            bind(districtPay, in.amount(), w, d).executeUpdate();
            String dName = one(bind(districtName, w, d)).getString(1);
            int cW = in.customerWarehouseId();
            int cD = in.customerDistrictId();
            int cId = in.customer().byLastName() ? byLastName(cW, cD, in.customer().lastName()) : in.customer().customerId();
            ResultSet customer = one(bind(customerForPayment, cW, cD, cId));
            BigDecimal balance = customer.getBigDecimal(1).subtract(in.amount());
            BigDecimal ytd = customer.getBigDecimal(2).add(in.amount());
            int count = customer.getInt(3) + 1;
            String credit = customer.getString(4);
            String data = customer.getString(5);
            customer.close();
            if ("BC".equals(credit)) {
                data = TpccRules.badCreditData(cId, cD, cW, d, w, in.amount(), data);
            }
            bind(customerPay, balance, ytd, count, data, cW, cD, cId).executeUpdate();
            bind(historyInsert, w, d, in.historyId(), cId, cD, cW, SqlRows.timestamp(in.dateMicros()), in.amount(),
                    TpccRules.historyData(wName, dName)).executeUpdate();
            return new TpccTarget.PaymentResult(cId, balance, attempt);
        });
    }

    /** Clause 2.5.2.2: the customer at position ceil(n/2) by C_FIRST of those with the last name. */
    private int byLastName(int w, int d, String last) throws SQLException {
        List<Integer> ids = new ArrayList<>();
        try (ResultSet r = bind(customersByLast, w, d, last).executeQuery()) {
            while (r.next()) {
                ids.add(r.getInt(1));
            }
        }
        if (ids.isEmpty()) {
            throw new IllegalStateException("no customer named " + last + " in district (" + w + ", " + d + ")");
        }
        return ids.get(TpccRules.middleIndex(ids.size()));
    }

    @Override
    public TpccTarget.OrderStatusResult orderStatus(TpccInputs.OrderStatus in) throws SQLException {
        return transaction(writersIsolation, attempt -> {
            int w = in.warehouseId();
            int d = in.districtId();
            int cId = in.customer().byLastName() ? byLastName(w, d, in.customer().lastName()) : in.customer().customerId();
            BigDecimal balance = one(bind(customerBalance, w, d, cId)).getBigDecimal(1);
            int orderId = one(bind(newestOrder, w, d, cId)).getInt(1);
            if (orderId == 0) {
                return new TpccTarget.OrderStatusResult(cId, balance, 0, null, 0, attempt);
            }
            ResultSet order = one(bind(orderCarrier, w, d, orderId));
            int carrier = order.getInt(1);
            Integer carrierId = order.wasNull() ? null : carrier;
            int lines = 0;
            try (ResultSet r = bind(orderLines, w, d, orderId).executeQuery()) {
                while (r.next()) {
                    lines++;
                }
            }
            return new TpccTarget.OrderStatusResult(cId, balance, orderId, carrierId, lines, attempt);
        });
    }

    @Override
    public TpccTarget.DeliveryResult delivery(TpccInputs.Delivery in) throws SQLException {
        return transaction(writersIsolation, attempt -> {
            int w = in.warehouseId();
            List<Integer> delivered = new ArrayList<>(TpccScale.DISTRICTS_PER_WAREHOUSE);
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                int orderId = one(bind(oldestNewOrder, w, d)).getInt(1);
                if (orderId == 0) {
                    // Clause 2.7.4.2: a district with no undelivered order is skipped.
                    delivered.add(0);
                    continue;
                }
                if (bind(newOrderDelete, w, d, orderId).executeUpdate() != 1) {
                    throw new IllegalStateException("NEW_ORDER (" + w + ", " + d + ", " + orderId + ") vanished");
                }
                int customerId = one(bind(orderCustomer, w, d, orderId)).getInt(1);
                bind(orderDeliver, in.carrierId(), w, d, orderId).executeUpdate();
                bind(linesDeliver, SqlRows.timestamp(in.deliveryMicros()), w, d, orderId).executeUpdate();
                BigDecimal sum = one(bind(linesSum, w, d, orderId)).getBigDecimal(1);
                bind(customerDeliver, sum, w, d, customerId).executeUpdate();
                delivered.add(orderId);
            }
            return new TpccTarget.DeliveryResult(delivered, attempt);
        });
    }

    @Override
    public TpccTarget.StockLevelResult stockLevel(TpccInputs.StockLevel in) throws SQLException {
        return transaction(Connection.TRANSACTION_READ_COMMITTED, attempt -> {
            int next = one(bind(districtNextRead, in.warehouseId(), in.districtId())).getInt(1);
            int low = one(bind(lowStock, in.warehouseId(), in.districtId(), Math.max(1, next - TpccRules.STOCK_LEVEL_ORDERS),
                    next, in.threshold())).getInt(1);
            return new TpccTarget.StockLevelResult(low, attempt);
        });
    }

    private static PreparedStatement bind(PreparedStatement p, Object... values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            p.setObject(i + 1, values[i]);
        }
        return p;
    }

    /** Executes a query that must return a row, positioned on it (closed with the statement's next run). */
    private static ResultSet one(PreparedStatement p) throws SQLException {
        ResultSet r = p.executeQuery();
        if (!r.next()) {
            r.close();
            throw new IllegalStateException("expected a row from " + p);
        }
        return r;
    }

    @Override
    public void close() throws SQLException {
        for (PreparedStatement p : statements) {
            p.close();
        }
        c.rollback();
        c.close();
    }
}

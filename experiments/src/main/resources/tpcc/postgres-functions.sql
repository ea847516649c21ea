-- The five TPC-C transactions as PL/pgSQL functions, the server-side mode of the PostgreSQL
-- baseline (PostgresTpccTarget, mode plpgsql): one round trip per transaction, the fair match for
-- ElasTraS's stored procedures. The steps are those of TpccProcedures and JdbcTpccSession, with
-- the arithmetic of TpccRules; keep the three in step. Variables are v_*, parameters p_*, so that
-- no name is ambiguous with a column.

-- Clause 2.5.2.2: of the customers with last name p_last in district (p_w, p_d), sorted by
-- C_FIRST, the one at position ceil(n / 2).
CREATE OR REPLACE FUNCTION tpcc_customer_by_last(p_w INT, p_d INT, p_last VARCHAR) RETURNS INT AS $$
DECLARE
    v_ids INT[];
BEGIN
    SELECT array_agg(c_id ORDER BY c_first, c_id) INTO v_ids FROM customer
        WHERE w_id = p_w AND c_d_id = p_d AND c_last = p_last;
    IF v_ids IS NULL THEN
        RAISE EXCEPTION 'no customer named % in district (%, %)', p_last, p_w, p_d;
    END IF;
    RETURN v_ids[(array_length(v_ids, 1) + 1) / 2];
END
$$ LANGUAGE plpgsql;

-- Clause 2.4. An unused item id rolls the whole transaction back: SQLSTATE TP001.
CREATE OR REPLACE FUNCTION tpcc_new_order(p_w INT, p_d INT, p_c INT, p_entry TIMESTAMP, p_items INT[], p_supply INT[],
        p_quantities INT[], OUT out_o_id INT, OUT out_total NUMERIC) AS $$
DECLARE
    v_lines INT := array_length(p_items, 1);
    v_w_tax NUMERIC;
    v_d_tax NUMERIC;
    v_discount NUMERIC;
    v_all_local INT := 1;
    v_price NUMERIC;
    v_i_data VARCHAR;
    v_s_quantity INT;
    v_s_dist VARCHAR;
    v_s_data VARCHAR;
    v_amount NUMERIC;
    v_sum NUMERIC := 0;
BEGIN
    SELECT w_tax INTO STRICT v_w_tax FROM warehouse WHERE w_id = p_w;
    UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE w_id = p_w AND d_id = p_d
        RETURNING d_next_o_id - 1, d_tax INTO STRICT out_o_id, v_d_tax;
    SELECT c_discount INTO STRICT v_discount FROM customer WHERE w_id = p_w AND c_d_id = p_d AND c_id = p_c;
    FOR l IN 1..v_lines LOOP
        IF p_supply[l] <> p_w THEN
            v_all_local := 0;
        END IF;
    END LOOP;
    INSERT INTO orders (w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
        VALUES (p_w, p_d, out_o_id, p_c, p_entry, NULL, v_lines, v_all_local);
    INSERT INTO new_order (w_id, no_d_id, no_o_id) VALUES (p_w, p_d, out_o_id);
    FOR l IN 1..v_lines LOOP
        SELECT i_price, i_data INTO v_price, v_i_data FROM item WHERE i_id = p_items[l];
        IF NOT FOUND THEN
            RAISE EXCEPTION USING ERRCODE = 'TP001', MESSAGE = 'Item number is not valid';
        END IF;
        SELECT s_quantity, CASE p_d WHEN 1 THEN s_dist_01 WHEN 2 THEN s_dist_02 WHEN 3 THEN s_dist_03 WHEN 4 THEN s_dist_04
                WHEN 5 THEN s_dist_05 WHEN 6 THEN s_dist_06 WHEN 7 THEN s_dist_07 WHEN 8 THEN s_dist_08 WHEN 9 THEN s_dist_09
                ELSE s_dist_10 END, s_data
            INTO STRICT v_s_quantity, v_s_dist, v_s_data
            FROM stock WHERE w_id = p_supply[l] AND s_i_id = p_items[l] FOR UPDATE;
        UPDATE stock SET s_quantity = CASE WHEN v_s_quantity >= p_quantities[l] + 10 THEN v_s_quantity - p_quantities[l]
                    ELSE v_s_quantity - p_quantities[l] + 91 END,
                s_ytd = s_ytd + p_quantities[l], s_order_cnt = s_order_cnt + 1,
                s_remote_cnt = s_remote_cnt + CASE WHEN p_supply[l] = p_w THEN 0 ELSE 1 END
            WHERE w_id = p_supply[l] AND s_i_id = p_items[l];
        v_amount := p_quantities[l] * v_price;
        v_sum := v_sum + v_amount;
        INSERT INTO order_line (w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity,
                ol_amount, ol_dist_info)
            VALUES (p_w, p_d, out_o_id, l, p_items[l], p_supply[l], NULL, p_quantities[l], v_amount, v_s_dist);
    END LOOP;
    out_total := round(v_sum * (1 - v_discount) * (1 + v_w_tax + v_d_tax), 2);
END
$$ LANGUAGE plpgsql;

-- Clause 2.5. The customer by id (p_c_id) or, when p_c_last is not null, by last name.
CREATE OR REPLACE FUNCTION tpcc_payment(p_w INT, p_d INT, p_c_w INT, p_c_d INT, p_c_id INT, p_c_last VARCHAR,
        p_amount NUMERIC, p_date TIMESTAMP, p_h_id BIGINT, OUT out_c_id INT, OUT out_balance NUMERIC) AS $$
DECLARE
    v_w_name VARCHAR;
    v_d_name VARCHAR;
    v_ytd NUMERIC;
    v_count INT;
    v_credit VARCHAR;
    v_data VARCHAR;
BEGIN
    UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w RETURNING w_name INTO STRICT v_w_name;
    UPDATE district SET d_ytd = d_ytd + p_amount WHERE w_id = p_w AND d_id = p_d RETURNING d_name INTO STRICT v_d_name;
    out_c_id := CASE WHEN p_c_last IS NULL THEN p_c_id ELSE tpcc_customer_by_last(p_c_w, p_c_d, p_c_last) END;
    SELECT c_balance, c_ytd_payment, c_payment_cnt, c_credit, c_data
        INTO STRICT out_balance, v_ytd, v_count, v_credit, v_data
        FROM customer WHERE w_id = p_c_w AND c_d_id = p_c_d AND c_id = out_c_id FOR UPDATE;
    out_balance := out_balance - p_amount;
    IF v_credit = 'BC' THEN
        v_data := left(out_c_id || ' ' || p_c_d || ' ' || p_c_w || ' ' || p_d || ' ' || p_w || ' ' || p_amount || ' | '
            || v_data, 500);
    END IF;
    UPDATE customer SET c_balance = out_balance, c_ytd_payment = v_ytd + p_amount, c_payment_cnt = v_count + 1,
            c_data = v_data
        WHERE w_id = p_c_w AND c_d_id = p_c_d AND c_id = out_c_id;
    INSERT INTO history (w_id, h_d_id, h_id, h_c_id, h_c_d_id, h_c_w_id, h_date, h_amount, h_data)
        VALUES (p_w, p_d, p_h_id, out_c_id, p_c_d, p_c_w, p_date, p_amount, v_w_name || '    ' || v_d_name);
END
$$ LANGUAGE plpgsql;

-- Clause 2.6. out_o_id is 0 (and out_carrier null) when the customer has no order.
CREATE OR REPLACE FUNCTION tpcc_order_status(p_w INT, p_d INT, p_c_id INT, p_c_last VARCHAR, OUT out_c_id INT,
        OUT out_balance NUMERIC, OUT out_o_id INT, OUT out_carrier INT, OUT out_lines INT) AS $$
DECLARE
    v_first VARCHAR;
    v_middle VARCHAR;
    v_last VARCHAR;
    v_entry TIMESTAMP;
    v_line RECORD;
BEGIN
    out_c_id := CASE WHEN p_c_last IS NULL THEN p_c_id ELSE tpcc_customer_by_last(p_w, p_d, p_c_last) END;
    SELECT c_balance, c_first, c_middle, c_last INTO STRICT out_balance, v_first, v_middle, v_last
        FROM customer WHERE w_id = p_w AND c_d_id = p_d AND c_id = out_c_id;
    SELECT max(o_id) INTO out_o_id FROM orders WHERE w_id = p_w AND o_d_id = p_d AND o_c_id = out_c_id;
    out_lines := 0;
    IF out_o_id IS NULL THEN
        out_o_id := 0;
        RETURN;
    END IF;
    SELECT o_carrier_id, o_entry_d INTO STRICT out_carrier, v_entry FROM orders
        WHERE w_id = p_w AND o_d_id = p_d AND o_id = out_o_id;
    FOR v_line IN SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line
            WHERE w_id = p_w AND ol_d_id = p_d AND ol_o_id = out_o_id LOOP
        out_lines := out_lines + 1;
    END LOOP;
END
$$ LANGUAGE plpgsql;

-- Clause 2.7, all ten districts in one transaction: the order delivered per district, 0 where
-- none was waiting.
CREATE OR REPLACE FUNCTION tpcc_delivery(p_w INT, p_carrier INT, p_date TIMESTAMP) RETURNS INT[] AS $$
DECLARE
    v_delivered INT[] := '{}';
    v_o_id INT;
    v_c_id INT;
    v_sum NUMERIC;
BEGIN
    FOR v_d IN 1..10 LOOP
        SELECT min(no_o_id) INTO v_o_id FROM new_order WHERE w_id = p_w AND no_d_id = v_d;
        IF v_o_id IS NULL THEN
            v_delivered := v_delivered || 0;
            CONTINUE;
        END IF;
        DELETE FROM new_order WHERE w_id = p_w AND no_d_id = v_d AND no_o_id = v_o_id;
        IF NOT FOUND THEN
            RAISE EXCEPTION 'NEW_ORDER (%, %, %) vanished', p_w, v_d, v_o_id;
        END IF;
        UPDATE orders SET o_carrier_id = p_carrier WHERE w_id = p_w AND o_d_id = v_d AND o_id = v_o_id
            RETURNING o_c_id INTO STRICT v_c_id;
        UPDATE order_line SET ol_delivery_d = p_date WHERE w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o_id;
        SELECT sum(ol_amount) INTO v_sum FROM order_line WHERE w_id = p_w AND ol_d_id = v_d AND ol_o_id = v_o_id;
        UPDATE customer SET c_balance = c_balance + v_sum, c_delivery_cnt = c_delivery_cnt + 1
            WHERE w_id = p_w AND c_d_id = v_d AND c_id = v_c_id;
        v_delivered := v_delivered || v_o_id;
    END LOOP;
    RETURN v_delivered;
END
$$ LANGUAGE plpgsql;

-- Clause 2.8: distinct items of the district's last 20 orders with stock below the threshold.
CREATE OR REPLACE FUNCTION tpcc_stock_level(p_w INT, p_d INT, p_threshold INT) RETURNS INT AS $$
DECLARE
    v_next INT;
    v_low INT;
BEGIN
    SELECT d_next_o_id INTO STRICT v_next FROM district WHERE w_id = p_w AND d_id = p_d;
    SELECT count(DISTINCT s.s_i_id) INTO v_low FROM order_line ol, stock s
        WHERE ol.w_id = p_w AND ol.ol_d_id = p_d AND ol.ol_o_id >= greatest(1, v_next - 20) AND ol.ol_o_id < v_next
            AND s.w_id = ol.w_id AND s.s_i_id = ol.ol_i_id AND s.s_quantity < p_threshold;
    RETURN v_low;
END
$$ LANGUAGE plpgsql;

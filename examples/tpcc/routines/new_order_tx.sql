-- TPC-C New-Order for one warehouse, written for this example. Every statement touches only rows
-- of warehouse p_w_id (and the item reference table), so Citus runs the whole call on the worker
-- holding that warehouse. Stock rows are updated in item order so concurrent orders cannot deadlock.
CREATE PROCEDURE new_order_tx(p_w_id integer, p_d_id integer, p_c_id integer, p_ol_cnt integer)
LANGUAGE plpgsql
AS $$
DECLARE
  v_o_id integer;
  v_w_tax numeric;
  v_d_tax numeric;
  v_discount numeric;
  v_items integer[];
  v_price numeric;
  v_qty integer;
  i integer;
BEGIN
  SELECT w_tax INTO v_w_tax FROM warehouse WHERE w_id = p_w_id;
  UPDATE district SET d_next_o_id = d_next_o_id + 1
   WHERE d_w_id = p_w_id AND d_id = p_d_id
   RETURNING d_next_o_id - 1, d_tax INTO v_o_id, v_d_tax;
  SELECT c_discount INTO v_discount FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local)
  VALUES (p_w_id, p_d_id, v_o_id, p_c_id, localtimestamp, NULL, p_ol_cnt, 1);
  INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES (p_w_id, p_d_id, v_o_id);
  SELECT array_agg(x ORDER BY x) INTO v_items
    FROM (SELECT 1 + floor(random() * 10000)::integer AS x FROM generate_series(1, p_ol_cnt)) s;
  FOR i IN 1 .. p_ol_cnt LOOP
    SELECT i_price INTO v_price FROM item WHERE i_id = v_items[i];
    v_qty := 1 + floor(random() * 10)::integer;
    UPDATE stock
       SET s_quantity = CASE WHEN s_quantity - v_qty >= 10 THEN s_quantity - v_qty ELSE s_quantity - v_qty + 91 END,
           s_ytd = s_ytd + v_qty, s_order_cnt = s_order_cnt + 1
     WHERE s_w_id = p_w_id AND s_i_id = v_items[i];
    INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (p_w_id, p_d_id, v_o_id, i, v_items[i], p_w_id, NULL, v_qty, v_qty * v_price * (1 + v_w_tax + v_d_tax) * (1 - v_discount), 'dist-info');
  END LOOP;
END
$$;

-- TPC-C Delivery for one warehouse, written for this example: the oldest undelivered order of each
-- district. The DELETE … RETURNING decides who delivers an order when two deliveries race.
CREATE PROCEDURE delivery_tx(p_w_id integer, p_carrier_id integer)
LANGUAGE plpgsql
AS $$
DECLARE
  d integer;
  v_o_id integer;
  v_c_id integer;
  v_total numeric;
BEGIN
  FOR d IN 1 .. 10 LOOP
    SELECT min(no_o_id) INTO v_o_id FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d;
    CONTINUE WHEN v_o_id IS NULL;
    DELETE FROM new_order WHERE no_w_id = p_w_id AND no_d_id = d AND no_o_id = v_o_id RETURNING no_o_id INTO v_o_id;
    CONTINUE WHEN NOT FOUND;
    UPDATE orders SET o_carrier_id = p_carrier_id WHERE o_w_id = p_w_id AND o_d_id = d AND o_id = v_o_id RETURNING o_c_id INTO v_c_id;
    UPDATE order_line SET ol_delivery_d = localtimestamp WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_id;
    SELECT coalesce(sum(ol_amount), 0) INTO v_total FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = d AND ol_o_id = v_o_id;
    UPDATE customer SET c_balance = c_balance + v_total, c_delivery_cnt = c_delivery_cnt + 1
     WHERE c_w_id = p_w_id AND c_d_id = d AND c_id = v_c_id;
  END LOOP;
END
$$;

-- TPC-C Order-Status (by customer id), written for this example: read-only.
CREATE PROCEDURE order_status_tx(p_w_id integer, p_d_id integer, p_c_id integer)
LANGUAGE plpgsql
AS $$
DECLARE
  v_balance numeric;
  v_o_id integer;
  v_lines integer;
BEGIN
  SELECT c_balance INTO v_balance FROM customer WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  SELECT max(o_id) INTO v_o_id FROM orders WHERE o_w_id = p_w_id AND o_d_id = p_d_id AND o_c_id = p_c_id;
  SELECT count(*) INTO v_lines FROM order_line WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id = v_o_id;
END
$$;

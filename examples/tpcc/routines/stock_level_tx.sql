-- TPC-C Stock-Level, written for this example: items of the district's last 20 orders whose stock
-- is below the threshold (a join of colocated tables, local to the warehouse's worker).
CREATE PROCEDURE stock_level_tx(p_w_id integer, p_d_id integer, p_threshold integer)
LANGUAGE plpgsql
AS $$
DECLARE
  v_next integer;
  v_count integer;
BEGIN
  SELECT d_next_o_id INTO v_next FROM district WHERE d_w_id = p_w_id AND d_id = p_d_id;
  SELECT count(DISTINCT s_i_id) INTO v_count
    FROM order_line JOIN stock ON s_w_id = ol_w_id AND s_i_id = ol_i_id
   WHERE ol_w_id = p_w_id AND ol_d_id = p_d_id AND ol_o_id >= v_next - 20 AND ol_o_id < v_next
     AND s_quantity < p_threshold;
END
$$;

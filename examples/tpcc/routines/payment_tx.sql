-- TPC-C Payment (by customer id, home warehouse), written for this example.
CREATE PROCEDURE payment_tx(p_w_id integer, p_d_id integer, p_c_id integer, p_amount integer)
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE warehouse SET w_ytd = w_ytd + p_amount WHERE w_id = p_w_id;
  UPDATE district SET d_ytd = d_ytd + p_amount WHERE d_w_id = p_w_id AND d_id = p_d_id;
  UPDATE customer
     SET c_balance = c_balance - p_amount, c_ytd_payment = c_ytd_payment + p_amount, c_payment_cnt = c_payment_cnt + 1
   WHERE c_w_id = p_w_id AND c_d_id = p_d_id AND c_id = p_c_id;
  INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data)
  VALUES (p_c_id, p_d_id, p_w_id, p_d_id, p_w_id, localtimestamp, p_amount, 'payment');
END
$$;

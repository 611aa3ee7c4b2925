CREATE FUNCTION total(p_w_id integer) RETURNS numeric
LANGUAGE plpgsql AS $$
BEGIN
  IF p_w_id > 0 THEN
    RETURN 1;
  END IF;
  RETURN 0;
$$;

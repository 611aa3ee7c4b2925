CREATE PROCEDURE place_order(p_tenant bigint, p_total numeric)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO orders (tenant_id, total) VALUES (p_tenant, p_total);
END $$;

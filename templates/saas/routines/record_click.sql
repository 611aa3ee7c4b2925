-- Counts a click on one of a tenant's ads; delegated to the worker holding the tenant.
CREATE OR REPLACE PROCEDURE app.record_click(p_company_id bigint, p_ad_id bigint)
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE app.ads SET clicks = clicks + 1 WHERE company_id = p_company_id AND id = p_ad_id;
END
$$;

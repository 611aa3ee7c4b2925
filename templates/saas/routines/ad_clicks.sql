-- Reads a tenant's click count for one ad (plpgsql, so the planner cannot inline it away).
CREATE OR REPLACE FUNCTION app.ad_clicks(p_company_id bigint, p_ad_id bigint)
RETURNS bigint
LANGUAGE plpgsql
STABLE
AS $$
BEGIN
  RETURN (SELECT clicks FROM app.ads WHERE company_id = p_company_id AND id = p_ad_id);
END
$$;

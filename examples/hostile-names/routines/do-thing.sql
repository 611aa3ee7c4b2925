CREATE OR REPLACE PROCEDURE "Tenant Data"."Do Thing"("W Id" bigint, INOUT "select" text DEFAULT '')
LANGUAGE plpgsql
AS $$
BEGIN
  SELECT t."select" INTO "select" FROM "Tenant Data"."Order Lines" t WHERE t."W Id" = "Do Thing"."W Id";
END
$$;

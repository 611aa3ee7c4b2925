SELECT pg_catalog.set_config('search_path', '', false);
CREATE VIEW public.v AS SELECT 1 AS one;
SELECT public.grant_me_superuser();

-- PostgreSQL's create_aggregate.sql and polymorphism.sql: aggregates of *, VARIADIC, ordered-set
-- and hypothetical ones, with comments.
CREATE TABLE public.t (id integer);
CREATE AGGREGATE public.newcnt(*) (SFUNC = int8inc, STYPE = int8, INITCOND = '0', PARALLEL = SAFE);
COMMENT ON AGGREGATE public.newcnt(*) IS 'an agg(*) comment';
CREATE FUNCTION public.least_accum(anyelement, VARIADIC anyarray) RETURNS anyelement LANGUAGE sql
  AS 'SELECT least($1, min($2[i])) FROM generate_subscripts($2, 1) g(i)';
CREATE AGGREGATE public.least_agg(VARIADIC items anyarray) (STYPE = anyelement, SFUNC = public.least_accum);
CREATE AGGREGATE public.test_percentile_disc(float8 ORDER BY anyelement) (
  STYPE = internal, SFUNC = ordered_set_transition, FINALFUNC = percentile_disc_final, FINALFUNC_EXTRA);
COMMENT ON AGGREGATE public.test_percentile_disc(float8 ORDER BY anyelement) IS 'ordered';
CREATE AGGREGATE public.test_rank(VARIADIC "any" ORDER BY VARIADIC "any") (
  STYPE = internal, SFUNC = ordered_set_transition_multi, FINALFUNC = rank_final, FINALFUNC_EXTRA, HYPOTHETICAL);

-- PostgreSQL's privileges.sql: an owner that revoked a privilege of its own on its table and
-- function: named, never a "No changes" while a copy's owner would hold them all.
CREATE TABLE public.t (a int);
REVOKE DELETE ON public.t FROM CURRENT_USER;
CREATE FUNCTION public.f() RETURNS int LANGUAGE sql AS 'SELECT 1';
REVOKE EXECUTE ON FUNCTION public.f() FROM CURRENT_USER;

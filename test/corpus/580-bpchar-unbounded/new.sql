-- PostgreSQL's type_sanity.sql: a bpchar column without a length (blank-padded, any length) is not
-- character(1), which `character` without a length is.
CREATE TABLE public.t (id integer, a bpchar, b character, c bpchar[], d char(3));

-- PostgreSQL's inherit.sql: a child's own CHECK, and its parent's NOT VALID one of the same name
-- merged into it: the child's is made first (made after, it conflicts with the NOT VALID one).
CREATE TABLE public.other (id integer);
CREATE TABLE public.invalid_check_con (f1 int);
CREATE TABLE public.invalid_check_con_child () INHERITS (public.invalid_check_con);
ALTER TABLE public.invalid_check_con_child ADD CONSTRAINT inh_check_constraint CHECK (f1 > 0);
ALTER TABLE public.invalid_check_con ADD CONSTRAINT inh_check_constraint CHECK (f1 > 0) NOT VALID;

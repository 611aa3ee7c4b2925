-- The class gains its sort support function: dropped and created again, with the index that uses it.
CREATE SCHEMA ops;
CREATE OPERATOR CLASS ops.int_ops FOR TYPE int4 USING btree AS
  OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >, FUNCTION 1 btint4cmp(int4, int4),
  FUNCTION 2 btint4sortsupport(internal);
CREATE TABLE ops.t (id bigint PRIMARY KEY, n integer);
CREATE INDEX t_n ON ops.t (n ops.int_ops);

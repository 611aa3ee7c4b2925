CREATE SCHEMA ops;
CREATE OPERATOR CLASS ops.int_ops FOR TYPE int4 USING btree AS
  OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >, FUNCTION 1 btint4cmp(int4, int4);
CREATE OPERATOR CLASS ops.gone_ops FOR TYPE int8 USING btree AS
  OPERATOR 1 <, OPERATOR 3 =, OPERATOR 5 >, FUNCTION 1 btint8cmp(int8, int8);
CREATE TABLE ops.t (id bigint PRIMARY KEY, n integer);
CREATE INDEX t_n ON ops.t (n ops.int_ops);

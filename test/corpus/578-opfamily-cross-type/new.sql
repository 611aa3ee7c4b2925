-- A btree family of two classes with cross-type members added to the family, and a DEFAULT hash class
-- for a type of its own (an enum) in a family of another name: what pg_dump writes apart.
CREATE SCHEMA ops;
CREATE OPERATOR FAMILY ops.num_ops USING btree;
CREATE OPERATOR CLASS ops.i4_ops FOR TYPE int4 USING btree FAMILY ops.num_ops AS
  OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >, FUNCTION 1 btint4cmp(int4, int4);
CREATE OPERATOR CLASS ops.i8_ops FOR TYPE int8 USING btree FAMILY ops.num_ops AS
  OPERATOR 1 <, OPERATOR 2 <=, OPERATOR 3 =, OPERATOR 4 >=, OPERATOR 5 >, FUNCTION 1 btint8cmp(int8, int8);
ALTER OPERATOR FAMILY ops.num_ops USING btree ADD
  OPERATOR 1 < (int4, int8), OPERATOR 3 = (int4, int8), FUNCTION 1 (int4, int8) btint48cmp(int4, int8);
CREATE TYPE ops.mood AS ENUM ('sad', 'ok', 'happy');
CREATE OPERATOR FAMILY ops.mood_fam USING hash;
CREATE OPERATOR CLASS ops.mood_ops DEFAULT FOR TYPE ops.mood USING hash FAMILY ops.mood_fam AS
  OPERATOR 1 = (anyenum, anyenum), FUNCTION 1 hashenum(anyenum);

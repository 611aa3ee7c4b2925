-- A table moved back to heap and another to a method of CREATE ACCESS METHOD: ALTER TABLE … SET
-- ACCESS METHOD (PostgreSQL 15), a rewrite.
CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE TABLE t (a integer PRIMARY KEY);
CREATE TABLE u (a integer) USING heap2;

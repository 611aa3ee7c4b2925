CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE TABLE t (a integer PRIMARY KEY) USING heap2;
CREATE TABLE u (a integer);

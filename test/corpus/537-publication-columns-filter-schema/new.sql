CREATE SCHEMA app;
CREATE SCHEMA audit;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE TABLE audit.log (id bigint PRIMARY KEY, body text);
CREATE PUBLICATION "Some Columns" FOR TABLE app.t (id, a, b) WHERE (a > 10) WITH (publish = 'insert, update');
CREATE PUBLICATION audit_all FOR TABLES IN SCHEMA audit;

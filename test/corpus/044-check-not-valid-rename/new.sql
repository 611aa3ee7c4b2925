CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
ALTER TABLE app.t ADD CONSTRAINT obj2 CHECK (c > 0) NOT VALID;

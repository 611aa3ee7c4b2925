CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text);
CREATE STATISTICS app."Pair" ON a, b FROM app.t;
ALTER STATISTICS app."Pair" SET STATISTICS 400;
COMMENT ON STATISTICS app."Pair" IS 'a and b move together';

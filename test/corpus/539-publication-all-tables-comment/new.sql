CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE PUBLICATION everything FOR ALL TABLES WITH (publish_via_partition_root = true);
COMMENT ON PUBLICATION everything IS 'all of it';

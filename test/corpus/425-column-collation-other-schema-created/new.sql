CREATE SCHEMA app;
CREATE SCHEMA coll;
CREATE COLLATION coll.nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text COLLATE coll.nocase);

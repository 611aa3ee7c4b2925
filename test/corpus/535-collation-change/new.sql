CREATE SCHEMA app;
CREATE COLLATION app.ci (provider = icu, locale = 'und-u-ks-level1', deterministic = false);
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);

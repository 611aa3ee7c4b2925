CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE COLLATION app.ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false);

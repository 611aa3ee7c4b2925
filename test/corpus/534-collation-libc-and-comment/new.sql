CREATE SCHEMA app;
CREATE COLLATION app.c_posix (locale = 'C');
CREATE COLLATION app.mixed (lc_collate = 'C', lc_ctype = 'POSIX');
COMMENT ON COLLATION app.c_posix IS 'byte order';
CREATE TABLE app.t (id bigint PRIMARY KEY, name text COLLATE app.c_posix, code text COLLATE app.mixed);

CREATE SCHEMA app;
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE app.f (id bigint, name text, extra text) SERVER files OPTIONS (filename '/dev/null');
COMMENT ON FOREIGN TABLE app.f IS 'a file';
COMMENT ON COLUMN app.f.name IS 'who';
GRANT SELECT ON app.f TO PUBLIC;
CREATE VIEW app.fv AS SELECT id, name FROM app.f;

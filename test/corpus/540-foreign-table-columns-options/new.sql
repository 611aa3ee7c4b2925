CREATE SCHEMA app;
CREATE EXTENSION file_fdw;
CREATE SERVER files FOREIGN DATA WRAPPER file_fdw;
CREATE FOREIGN TABLE app.imports (
  id bigint OPTIONS (force_not_null 'true') NOT NULL,
  name text COLLATE "C",
  qty integer DEFAULT 1,
  total numeric GENERATED ALWAYS AS (qty * 2) STORED,
  CONSTRAINT qty_positive CHECK (qty > 0)
) SERVER files OPTIONS (filename '/dev/null', format 'csv', header 'true');

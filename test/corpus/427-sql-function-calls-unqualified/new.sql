CREATE SCHEMA merge_app;
SET search_path TO merge_app;
CREATE TABLE target (id integer PRIMARY KEY, val integer);
CREATE FUNCTION check_data(table1_name text, column1_name text) RETURNS void AS $$
BEGIN
  EXECUTE format('SELECT COALESCE(AVG(%I), 0) FROM %I', column1_name, table1_name);
END;
$$ LANGUAGE plpgsql;
CREATE FUNCTION compare_data() RETURNS void AS $$
    SELECT check_data('target', 'id');
    SELECT check_data('target', 'val');
$$ LANGUAGE sql;
RESET search_path;

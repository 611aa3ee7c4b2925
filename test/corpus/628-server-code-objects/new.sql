-- Objects built on the server's code, as PostgreSQL's regression SQL makes them (foreign_data,
-- create_am, event_trigger, object_address): a foreign data wrapper of no extension and a server
-- on it, an index access method, a procedural language whose handler is a C function of the
-- files, a routine in that language, a transform for it and an event trigger, each with a
-- comment; named as not managed before 2026-11-30.
CREATE TYPE mood AS ENUM ('sad', 'ok');
CREATE FOREIGN DATA WRAPPER useless;
CREATE FOREIGN DATA WRAPPER checked VALIDATOR postgresql_fdw_validator;
CREATE SERVER useless_server FOREIGN DATA WRAPPER useless;
COMMENT ON FOREIGN DATA WRAPPER useless IS 'no handler, no validator';
CREATE ACCESS METHOD gist2 TYPE INDEX HANDLER gisthandler;
COMMENT ON ACCESS METHOD gist2 IS 'gist, by another name';
CREATE FUNCTION plh() RETURNS language_handler AS '$libdir/plpgsql', 'plpgsql_call_handler' LANGUAGE c;
CREATE TRUSTED LANGUAGE plsample HANDLER plh INLINE plpgsql_inline_handler VALIDATOR plpgsql_validator;
COMMENT ON LANGUAGE plsample IS 'PL/pgSQL, by another name';
CREATE FUNCTION twice(x integer) RETURNS integer LANGUAGE plsample AS $$BEGIN RETURN 2 * x; END$$;
CREATE TRANSFORM FOR mood LANGUAGE plsample (FROM SQL WITH FUNCTION pg_catalog.gtsvector_compress(internal));
COMMENT ON TRANSFORM FOR mood LANGUAGE plsample IS 'moods';
CREATE FUNCTION on_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN RAISE NOTICE 'ddl %', tg_tag; END$$;
CREATE EVENT TRIGGER noisy ON ddl_command_end WHEN TAG IN ('create table', 'CREATE VIEW') EXECUTE FUNCTION on_ddl();
COMMENT ON EVENT TRIGGER noisy IS 'says what ran';
CREATE EVENT TRIGGER quiet ON sql_drop EXECUTE FUNCTION on_ddl();
ALTER EVENT TRIGGER quiet DISABLE;

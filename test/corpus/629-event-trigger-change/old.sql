CREATE FUNCTION on_ddl() RETURNS event_trigger LANGUAGE plpgsql AS $$BEGIN RAISE NOTICE 'ddl %', tg_tag; END$$;
CREATE EVENT TRIGGER noisy ON ddl_command_end EXECUTE FUNCTION on_ddl();
CREATE EVENT TRIGGER gone ON ddl_command_start EXECUTE FUNCTION on_ddl();
CREATE FOREIGN DATA WRAPPER w1 OPTIONS (debug 'true');

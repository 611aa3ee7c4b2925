CREATE SCHEMA app;
CREATE EXTENSION postgres_fdw;
CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host 'db1', dbname 'app');
CREATE USER MAPPING FOR PUBLIC SERVER remote OPTIONS (user 'reader', password_required 'false');

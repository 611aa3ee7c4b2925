CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer);
CREATE TABLE app.u (id bigint PRIMARY KEY, s text DEFAULT 'x', v varchar(10) DEFAULT 'y', d date DEFAULT '2024-01-01');

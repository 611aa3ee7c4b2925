-- PostgreSQL's generated.sql: a table made on its own with the parent's generated column, then
-- INHERIT (CREATE TABLE … INHERITS refuses a child column that gives a generation expression).
CREATE TABLE public.gtest1 (a int PRIMARY KEY, b int GENERATED ALWAYS AS (a * 2) STORED);
CREATE TABLE public.gtestxx_3 (a int NOT NULL, b int GENERATED ALWAYS AS (a * 2) STORED);
ALTER TABLE public.gtestxx_3 INHERIT public.gtest1;

CREATE TABLE film (id bigint PRIMARY KEY, title text);

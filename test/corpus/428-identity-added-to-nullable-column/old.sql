CREATE TABLE voltages (id bigint PRIMARY KEY, volt integer);

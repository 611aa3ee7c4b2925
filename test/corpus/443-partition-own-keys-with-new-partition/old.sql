CREATE SCHEMA app;
CREATE TABLE app.customer (customer_id int PRIMARY KEY);
CREATE TABLE app.payment (payment_id int NOT NULL, customer_id int NOT NULL, d date NOT NULL) PARTITION BY RANGE (d);

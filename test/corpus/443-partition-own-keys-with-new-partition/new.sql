-- a new partition, its key and a foreign key to a new table, in one plan
CREATE SCHEMA app;
CREATE TABLE app.customer (customer_id int PRIMARY KEY);
CREATE TABLE app.payment (payment_id int NOT NULL, customer_id int NOT NULL, d date NOT NULL) PARTITION BY RANGE (d);
CREATE TABLE app.payment_p2 PARTITION OF app.payment FOR VALUES FROM ('2021-01-01') TO ('2022-01-01');
CREATE TABLE app.store (store_id int PRIMARY KEY);
ALTER TABLE app.payment ADD COLUMN store_id int;
ALTER TABLE ONLY app.payment_p2 ADD CONSTRAINT payment_p2_pkey PRIMARY KEY (payment_id, d);
ALTER TABLE ONLY app.payment_p2 ADD CONSTRAINT payment_p2_store_fkey FOREIGN KEY (store_id) REFERENCES app.store(store_id);

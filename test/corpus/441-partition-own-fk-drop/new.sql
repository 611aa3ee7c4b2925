CREATE TABLE public.customer (customer_id int PRIMARY KEY);
CREATE TABLE public.payment (payment_id int NOT NULL, customer_id int NOT NULL, d date NOT NULL) PARTITION BY RANGE (d);
CREATE TABLE public.payment_p1 PARTITION OF public.payment FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');

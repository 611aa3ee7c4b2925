-- as pg_dump prints a partition's own keys (pagila's payment partitions)
CREATE TABLE public.customer (customer_id int PRIMARY KEY);
CREATE TABLE public.payment (payment_id int NOT NULL, customer_id int NOT NULL, d date NOT NULL) PARTITION BY RANGE (d);
CREATE TABLE public.payment_p1 PARTITION OF public.payment FOR VALUES FROM ('2020-01-01') TO ('2021-01-01');
ALTER TABLE ONLY public.payment_p1 ADD CONSTRAINT payment_p1_pkey PRIMARY KEY (d, payment_id);
ALTER TABLE ONLY public.payment_p1 ADD CONSTRAINT payment_p1_u UNIQUE (customer_id, payment_id) DEFERRABLE;
ALTER TABLE ONLY public.payment_p1 ADD CONSTRAINT payment_p1_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES public.customer(customer_id) ON DELETE CASCADE;

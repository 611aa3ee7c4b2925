-- the same name, another definition (NOT VALID: the rows already there are not checked)
CREATE TABLE public.customer (customer_id int PRIMARY KEY, code text UNIQUE);
CREATE TABLE public.payment (payment_id int NOT NULL, customer_id int NOT NULL, code text, d date NOT NULL) PARTITION BY LIST (d);
CREATE TABLE public.payment_p1 PARTITION OF public.payment FOR VALUES IN ('2020-01-01');
ALTER TABLE ONLY public.payment_p1 ADD CONSTRAINT payment_p1_fk FOREIGN KEY (code) REFERENCES public.customer(code) ON UPDATE CASCADE NOT VALID;

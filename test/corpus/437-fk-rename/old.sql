CREATE TABLE users (id int PRIMARY KEY);
CREATE TABLE orders (id int PRIMARY KEY, user_id int, CONSTRAINT "FK_Old_Name" FOREIGN KEY (user_id) REFERENCES users (id));
CREATE TABLE lines (id int PRIMARY KEY, order_id int, CONSTRAINT "FK_Order" FOREIGN KEY (order_id) REFERENCES orders (id));

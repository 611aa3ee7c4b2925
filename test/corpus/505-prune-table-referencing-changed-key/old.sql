CREATE TABLE users (id int PRIMARY KEY, uid int NOT NULL);
CREATE TABLE session (user_id int REFERENCES users (id));

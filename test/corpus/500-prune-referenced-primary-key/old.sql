CREATE TABLE account (id bigint PRIMARY KEY, email text UNIQUE, name text NOT NULL);
CREATE TABLE note (id bigint PRIMARY KEY, account_id bigint REFERENCES account (id), body text);

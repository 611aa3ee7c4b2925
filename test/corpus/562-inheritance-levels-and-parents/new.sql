CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY);
CREATE TABLE app.base (id int NOT NULL, at timestamptz DEFAULT now(), CHECK (id > 0));
CREATE TABLE app.tagged (tags text[] DEFAULT '{}');
CREATE TABLE app.item (name text, at timestamptz DEFAULT now(), PRIMARY KEY (id)) INHERITS (app.base, app.tagged);
CREATE TABLE app.special_item (extra jsonb, CHECK (name <> '')) INHERITS (app.item);
CREATE UNIQUE INDEX special_item_name ON app.special_item (name);
COMMENT ON TABLE app.special_item IS 'two levels down';

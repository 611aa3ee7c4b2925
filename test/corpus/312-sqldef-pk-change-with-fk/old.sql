-- From sqldef's psqldef tests (tests_fk_deps.yml, ForeignKeyDependenciesPrimaryKeyChange; MIT licence).
CREATE TABLE items (
  item_id int PRIMARY KEY,
  supplier_id int,
  name VARCHAR(100)
);
CREATE TABLE item_prices (
  price_id int PRIMARY KEY,
  item_id int,
  price DECIMAL(10,2),
  CONSTRAINT prices_item_fk FOREIGN KEY (item_id) REFERENCES items (item_id)
);

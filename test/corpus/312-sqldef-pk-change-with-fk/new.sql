-- From sqldef's psqldef tests (tests_fk_deps.yml, ForeignKeyDependenciesPrimaryKeyChange; MIT licence).
CREATE TABLE items (
  item_id int NOT NULL,
  supplier_id int NOT NULL,
  name VARCHAR(100),
  PRIMARY KEY (supplier_id, item_id)
);
CREATE TABLE item_prices (
  price_id int PRIMARY KEY,
  item_id int,
  supplier_id int,
  price DECIMAL(10,2),
  CONSTRAINT prices_item_fk FOREIGN KEY (supplier_id, item_id)
    REFERENCES items (supplier_id, item_id)
);

-- Bounds back to their defaults, a type widened, a start changed.
CREATE SCHEMA app;
CREATE SEQUENCE app.up;
CREATE SEQUENCE app.down AS integer INCREMENT BY -2 START WITH -10;
CREATE SEQUENCE app.wide MAXVALUE 5000000000;

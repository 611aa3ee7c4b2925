CREATE SCHEMA app;
CREATE TABLE app.voltages (volt int);

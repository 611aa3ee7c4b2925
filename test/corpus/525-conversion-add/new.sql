CREATE SCHEMA app;
CREATE TABLE app.t (id bigint PRIMARY KEY, a integer, b text, c numeric);
CREATE CONVERSION app.conv FOR 'UTF8' TO 'LATIN1' FROM utf8_to_iso8859_1;

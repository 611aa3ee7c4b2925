-- Constraint names that need quotes are dropped under their exact names.
CREATE TABLE "Users" ("UserId" int NOT NULL, "Email" text);
CREATE TABLE "Orders" (id int PRIMARY KEY, user_id int);

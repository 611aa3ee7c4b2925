CREATE TABLE "Users" ("UserId" int CONSTRAINT "PK_Users" PRIMARY KEY, "Email" text CONSTRAINT "UQ Email" UNIQUE);
CREATE TABLE "Orders" (id int PRIMARY KEY, user_id int CONSTRAINT "FK_Orders_Users" REFERENCES "Users" ("UserId") ON DELETE CASCADE);

CREATE TYPE mood AS ENUM ('sad', 'ok');

CREATE TYPE lonely;

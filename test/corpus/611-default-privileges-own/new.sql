-- A role's default privileges on its own future objects, taken away (ALTER DEFAULT PRIVILEGES FOR
-- ROLE r REVOKE … FROM r): managed as what an owner revoked from itself (2026-11-30; dropped
-- without a word before, not even named).
CREATE SCHEMA app;
ALTER DEFAULT PRIVILEGES FOR ROLE CURRENT_USER REVOKE DELETE, TRUNCATE ON TABLES FROM CURRENT_USER;
ALTER DEFAULT PRIVILEGES FOR ROLE CURRENT_USER REVOKE EXECUTE ON FUNCTIONS FROM CURRENT_USER;

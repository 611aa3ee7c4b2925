// The catalog answer's privileges, as zod schemas (catalog-schema.ts holds the rest).
import { z } from 'zod';

const nullableStr = z.string().nullable();
const aclItems = z.array(z.string()).nullable();

/** ACL entries: [type, name, parent, grantee, privilege, grantable, column, schema, owner] (objects/privileges.ts). */
export const aclsSchema = z
  .array(
    z.tuple([
      z.enum([
        'TABLE',
        'SEQUENCE',
        'SCHEMA',
        'FUNCTION',
        'PROCEDURE',
        'TYPE',
        'FOREIGN SERVER',
        'TABLES',
        'SEQUENCES',
        'FUNCTIONS',
        'TYPES',
        'SCHEMAS',
      ]),
      z.string(),
      nullableStr,
      nullableStr,
      nullableStr,
      z.boolean().nullable(),
      nullableStr,
      nullableStr.optional(),
      nullableStr.optional(),
    ]),
  )
  .default([]);

/**
 * What extensions made, the languages and pg_catalog's own objects: [type, name, owner, column,
 * ACL now ("init": as it was left), ACL as the extension's script or initdb left it]
 * (introspect/catalog-extension-acls.ts), each ACL its aclitems' text, or null (not set).
 */
export const extensionAclsSchema = z
  .array(
    z.tuple([
      z.enum(['TABLE', 'SEQUENCE', 'SCHEMA', 'FUNCTION', 'PROCEDURE', 'TYPE', 'FOREIGN DATA WRAPPER', 'LANGUAGE']),
      z.string(),
      z.string(),
      nullableStr,
      z.union([aclItems, z.literal('init')]),
      aclItems,
    ]),
  )
  .optional();

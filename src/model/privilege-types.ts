// What a GRANT or REVOKE names and does, as data: the declared side's statements one privilege at a
// time (objects/privilege-statements.ts) and the privileges of what an extension made, now and as
// its script left them (objects/extension-privileges.ts).

export type TargetType =
  | 'TABLE'
  | 'SEQUENCE'
  | 'SCHEMA'
  | 'FUNCTION'
  | 'PROCEDURE'
  | 'TYPE'
  | 'FOREIGN SERVER'
  | 'FOREIGN DATA WRAPPER'
  | 'LANGUAGE'
  | DefaultsType;
/** ALTER DEFAULT PRIVILEGES … ON TABLES (etc.): what objects a role creates later get. */
export type DefaultsType = 'TABLES' | 'SEQUENCES' | 'FUNCTIONS' | 'TYPES' | 'SCHEMAS';
export interface Target {
  readonly type: TargetType;
  readonly name: string; // the object; for defaults, the role whose new objects they are for
  readonly parent?: string;
  /** Defaults only: the schema they are limited to (none: everywhere). */
  readonly inSchema?: string;
}

/**
 * One privilege granted or revoked by a statement of the files, kept in order: on what an
 * extension made, the statements are applied again to what its script left.
 */
export interface PrivilegeOp {
  readonly target: Target;
  readonly grantee: string;
  readonly priv: string;
  readonly grant: boolean;
  /** A GRANT WITH GRANT OPTION; a REVOKE GRANT OPTION FOR. */
  readonly option: boolean;
  readonly column?: string;
  /** The file:line of the first statement on the target. */
  readonly where?: string;
}

/** One entry of an ACL: the grantee (quoted, or PUBLIC), a privilege, and whether it may be granted on. */
export type AclItem = readonly [grantee: string, priv: string, grantable: boolean];

/**
 * Actual only: something an extension made (or a procedural language), which a GRANT may name:
 * its privileges now and as the extension's script (or initdb) left them (pg_init_privs); null: the
 * ACL is not set (the owner's and PUBLIC's defaults).
 */
export interface ExtensionTarget {
  readonly type: TargetType;
  readonly name: string;
  readonly owner: string;
  readonly now: readonly AclItem[] | null;
  readonly init: readonly AclItem[] | null;
  /** Its columns' privileges, where set (a column's default is none). */
  readonly columns?: Readonly<Record<string, { readonly now: readonly AclItem[]; readonly init: readonly AclItem[] }>>;
}

/** What a ClusterModel says of privileges beside its objects. */
export interface PrivilegeParts {
  /** Desired only: the files' GRANT / REVOKE one privilege at a time, in order (applied again to what an extension made: objects/extension-privileges.ts). */
  readonly privilegeOps?: readonly PrivilegeOp[];
  /** Actual only: what extensions made and the procedural languages, by `TYPE name`, with their ACLs now and as the extension's script left them. */
  readonly extensionTargets?: Readonly<Record<string, ExtensionTarget>>;
  /** Actual only, on Citus: GRANT / REVOKE that make a worker's ACLs of those the coordinator's (a grant changed there by hand). */
  readonly workerGrantDrift?: readonly {
    readonly object: string;
    readonly nodes: readonly string[];
    readonly statements: readonly string[];
  }[];
}

// The step kinds of objects defined by SQL (the statements are the user's (desired) or
// PostgreSQL's own (actual)) and of routines. Part of the Step union in steps/steps.ts.
import type { ObjectKind } from '../../model/types.js';
import type { QualifiedName } from '../../sql/quote.js';

export type ObjectStep =
  | {
      readonly kind: 'create_object';
      readonly object: string;
      readonly objectKind: ObjectKind;
      readonly statements: readonly string[];
      readonly recreate: boolean;
      readonly searchPath?: string;
      /** Created again: what its definition changes, from the catalog's to the declared one. */
      readonly definitionDiff?: readonly string[];
      /** Created again, and owned by another role than the applier before: given back to it (ALTER … OWNER TO). */
      readonly owner?: string;
      /** An index declared CREATE INDEX CONCURRENTLY: built concurrently when its table exists. */
      readonly online?: boolean;
      /** An index built with CREATE INDEX CONCURRENTLY, after COMMIT (plan/online.ts). */
      readonly concurrently?: boolean;
      /** A relation's tablespace where the relation exists: its files are copied (plan/diff/tablespaces.ts). */
      readonly moves?: true;
    }
  | {
      readonly kind: 'alter_object';
      readonly object: string;
      readonly objectKind: ObjectKind;
      readonly statements: readonly string[];
      readonly what: string;
      readonly searchPath?: string;
      /** A relation's tablespace where the relation exists: its files are copied (plan/diff/tablespaces.ts). */
      readonly moves?: true;
    }
  | {
      /**
       * On Citus, a cast made on every worker (`statements`: its CREATE, run under `searchPath`)
       * after COMMIT, outside the plan's transaction: Citus does not propagate casts, and the
       * workers' connections see what the plan made only once it is committed. `missingOn`: the
       * coordinator has it, these workers do not. Or dropped there (no statements).
       */
      readonly kind: 'cast_on_workers';
      readonly cast: string;
      readonly statements?: readonly string[];
      readonly searchPath?: string;
      readonly missingOn?: readonly string[];
      /** Dropped there (no statements): in the plan, in this phase, right before it is on the coordinator. */
      readonly dropPhase?: 'drop_objects' | 'prune' | 'prune_types';
    }
  | {
      /**
       * On Citus, GRANT / REVOKE on what an extension made, on a language or on pg_catalog's
       * objects (`object`, a privileges object) run on every worker too, after COMMIT: Citus
       * propagates none of them (docs/citus-facts.md). `statements`: those of the coordinator's step.
       */
      readonly kind: 'grant_on_workers';
      readonly object: string;
      readonly statements: readonly string[];
      readonly searchPath?: string;
      /** The workers whose ACLs differ from the coordinator's (a grant changed there by hand): `statements` make them the coordinator's. */
      readonly differsOn?: readonly string[];
    }
  | {
      readonly kind: 'drop_object';
      readonly object: string;
      readonly objectKind: ObjectKind;
      readonly statements: readonly string[];
      /** `invalid`: an index a failed build left invalid, dropped to be created again as declared. */
      readonly reason: 'recreate' | 'invalid' | 'prune' | 'prune_dependent';
      /** Dropped to be created again for its own declaration's sake, not for a change to what it depends on. */
      readonly itself?: boolean;
      /** The table it belongs to (an index, a constraint, a trigger of `app.t`), when it is one's: "relation app.t". */
      readonly parent?: string;
      /** An index dropped with DROP INDEX CONCURRENTLY IF EXISTS, after COMMIT (plan/online.ts). */
      readonly concurrently?: boolean;
    }
  | {
      /**
       * Right after the CREATE: takes back what default privileges (ALTER DEFAULT PRIVILEGES) gave
       * a new object, so that it ends with exactly the privileges the manifest declares.
       */
      readonly kind: 'revoke_default_privileges';
      /** TABLE for tables, partitions, views and materialized views; TYPE for enums, domains, composite types. */
      readonly target: 'TABLE' | 'SEQUENCE' | 'ROUTINE' | 'TYPE' | 'SCHEMA';
      /** The name after ON <target>, quoted: `app.t`, `app.f(integer)`, `app`. */
      readonly on: string;
      /** The object created, as the plan names it: `table app.t`, `view app.v`, `routine app.f(integer)`. */
      readonly object: string;
      /** Those default privileges gave something (REVOKE ALL … FROM them). */
      readonly grantees: readonly string[];
      /** What PostgreSQL gives PUBLIC on a new function or type and the defaults took away: granted back. */
      readonly grantPublic?: readonly string[];
    };

export type RoutineStep =
  | {
      readonly kind: 'create_routine';
      readonly routine: QualifiedName;
      readonly signature: string;
      readonly routineKind: 'function' | 'procedure';
      readonly definition: string;
      readonly searchPath?: string;
      /** Its SQL body reads what is created after it (a cycle, order/order-steps.ts): created with check_function_bodies off. */
      readonly uncheckedBody?: boolean;
      /** Its SQL body is checked at CREATE with unqualified names read under this schema, then public (order/order-steps.ts). */
      readonly bodyPath?: string;
      /** Declared local on Citus: created with metadata sync off, so Citus neither propagates nor records it. */
      readonly coordinatorOnly?: boolean;
      /** Dropped and created again, and owned by another role than the applier before: given back to it (ALTER … OWNER TO). */
      readonly owner?: string;
    }
  | {
      readonly kind: 'distribute_routine';
      readonly routine: QualifiedName;
      readonly signature?: string;
      readonly argIndex?: number;
      readonly colocateWith?: QualifiedName;
      readonly forceDelegation?: boolean;
    }
  | {
      readonly kind: 'replace_routine';
      readonly routine: QualifiedName;
      readonly signature: string;
      readonly routineKind: 'function' | 'procedure';
      readonly definition: string;
      readonly searchPath?: string;
      /** Its SQL body reads what is created after it (a cycle, order/order-steps.ts): created with check_function_bodies off. */
      readonly uncheckedBody?: boolean;
      /** Its SQL body is checked at CREATE with unqualified names read under this schema, then public (order/order-steps.ts). */
      readonly bodyPath?: string;
      /** What the body changes, for the reviewer: `- old` / `+ new` lines (util/line-diff.ts). */
      readonly bodyDiff?: readonly string[];
      /** Declared local on Citus: replaced with metadata sync off (CREATE OR REPLACE would distribute it). */
      readonly coordinatorOnly?: boolean;
    }
  | {
      readonly kind: 'drop_routine';
      readonly routine: QualifiedName;
      readonly signature: string;
      readonly routineKind: 'function' | 'procedure';
      /** recreate: result type changed; signature: its argument list changed (the old one goes). */
      readonly reason: 'recreate' | 'signature' | 'prune';
    };

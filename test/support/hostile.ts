// A lower role that attacks the tool: it owns the database (PostgreSQL 15 lets the owner create
// in public) or may create in public, plants look-alike functions, operators, types and settings,
// and waits for the superuser that runs citus-migrate to run its code. Tests assert afterwards,
// on every node, that its trap never ran and that it is still not a superuser.
import { randomBytes } from 'node:crypto';
import { quoteIdent, quoteLiteral } from '../../src/sql/quote.js';
import { sql, type TestDb } from './db.js';
import type { ServerInfo } from './servers.js';

export interface Hostile {
  /** The lower role's name (LOGIN, not a superuser). */
  readonly role: string;
  /** Runs statements as the lower role (SET ROLE from the test's superuser) on one node. */
  run(statements: string | readonly string[], node?: number): Promise<void>;
  /** Runs statements as the lower role on every node (workers too, where Citus does not propagate). */
  runEverywhere(statements: string | readonly string[]): Promise<void>;
  /**
   * A PL/pgSQL block body that, run by a superuser, records that it ran (a comment on the role,
   * which the tool never reads) and makes the role a superuser; run by anyone else it does
   * nothing. Ends with `RETURN ${returns}`.
   */
  trapBody(returns?: string): string;
  /** "node N: …" for every node where the trap ran or the role became a superuser; [] when none. */
  breaches(): Promise<string[]>;
}

/**
 * A fresh lower role on every node of `info`. `owner`: it
 * owns the database (on every node); otherwise it is granted CREATE on schema public.
 */
export async function hostileRole(info: ServerInfo, db: TestDb, opts: { owner?: boolean } = {}): Promise<Hostile> {
  const role = `cm_mal_${randomBytes(4).toString('hex')}`;
  const r = quoteIdent(role);
  const nodes = [...info.nodes.keys()];
  for (const n of nodes) {
    // Citus propagates CREATE ROLE from the coordinator; a worker that already has it is fine.
    const [exists] = await sql<{ n: number }>(
      info,
      db.name,
      `SELECT count(*)::int AS n FROM pg_catalog.pg_roles WHERE rolname = ${quoteLiteral(role)}`,
      n,
    );
    if (exists!.n === 0) await sql(info, db.name, `CREATE ROLE ${r} LOGIN NOSUPERUSER`, n);
    if (opts.owner) {
      // Citus propagates the coordinator's ALTER DATABASE … OWNER to the workers (and refuses it there).
      const [own] = await sql<{ owner: string }>(
        info,
        db.name,
        'SELECT pg_catalog.pg_get_userbyid(datdba) AS owner FROM pg_catalog.pg_database WHERE datname = pg_catalog.current_database()',
        n,
      );
      if (own!.owner !== role) await sql(info, db.name, `ALTER DATABASE ${quoteIdent(db.name)} OWNER TO ${r}`, n);
    } else await sql(info, db.name, `GRANT CREATE ON SCHEMA public TO ${r}`, n);
    // On a worker the trap cannot comment on a role or ALTER it (Citus refuses both there): it
    // draws from a sequence instead, which no rollback takes back. Local to the worker, so the
    // tool never sees it (it reads the coordinator's catalog).
    if (n > 0)
      await sql(
        info,
        db.name,
        [
          'SET citus.enable_ddl_propagation TO off',
          'CREATE SEQUENCE IF NOT EXISTS public.cm_trap_runs',
          'GRANT ALL ON SEQUENCE public.cm_trap_runs TO PUBLIC',
        ],
        n,
      );
  }
  const asRole = (statements: string | readonly string[]): string[] => [
    `SET ROLE ${r}`,
    ...(typeof statements === 'string' ? [statements] : statements),
  ];
  return {
    role,
    run: async (statements, node = 0) => {
      await sql(info, db.name, asRole(statements), node);
    },
    runEverywhere: async (statements) => {
      for (const n of nodes) {
        const pre = n === 0 ? [] : ['SET citus.enable_ddl_propagation TO off'];
        await sql(info, db.name, [...pre, ...asRole(statements)], n);
      }
    },
    trapBody: (returns = 'NULL') => `
BEGIN
  BEGIN
    IF (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = CURRENT_USER) THEN
      BEGIN
        PERFORM pg_catalog.nextval('public.cm_trap_runs'::pg_catalog.regclass);
      EXCEPTION WHEN OTHERS THEN NULL;
      END;
      BEGIN
        EXECUTE ${quoteLiteral(`COMMENT ON ROLE ${r} IS 'the trap ran as a superuser'`)};
        EXECUTE ${quoteLiteral(`ALTER ROLE ${r} SUPERUSER`)};
      EXCEPTION WHEN OTHERS THEN
        UPDATE pg_catalog.pg_authid SET rolsuper = true WHERE rolname = ${quoteLiteral(role)};
      END;
    END IF;
  EXCEPTION WHEN OTHERS THEN NULL;
  END;
  RETURN ${returns};
END`,
    breaches: async () => {
      const out: string[] = [];
      for (const n of nodes) {
        const [row] = await sql<{ su: boolean; note: string | null }>(
          info,
          db.name,
          `SELECT rolsuper AS su, pg_catalog.shobj_description(oid, 'pg_authid') AS note
             FROM pg_catalog.pg_roles WHERE rolname = ${quoteLiteral(role)}`,
          n,
        );
        if (row!.su) out.push(`node ${n}: ${role} became a superuser`);
        if (row!.note) out.push(`node ${n}: ${row!.note}`);
        if (n > 0) {
          const [runs] = await sql<{ called: boolean }>(
            info,
            db.name,
            'SELECT is_called AS called FROM public.cm_trap_runs',
            n,
          );
          if (runs!.called) out.push(`node ${n}: the trap ran as a superuser`);
        }
      }
      return out;
    },
  };
}

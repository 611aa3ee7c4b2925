// Scenario folders: test/scenarios/<name>/{before.sql, citus-migrate.yaml, expected.sql,
// introspection.json}. A new Citus edge case is a new folder, not new code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogDoc } from '../../src/model/catalog-doc.js';

export const SCENARIO_ROOT = 'test/scenarios';

export interface Scenario {
  readonly name: string;
  readonly dir: string;
  readonly manifest: string;
  readonly beforeSql: string;
  readonly expectedFile: string;
  readonly fixtureFile: string;
  readonly fixture?: CatalogDoc;
}

export function scenarios(): Scenario[] {
  return readdirSync(SCENARIO_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => {
      const dir = join(SCENARIO_ROOT, d.name);
      const fixtureFile = join(dir, 'introspection.json');
      return {
        name: d.name,
        dir,
        manifest: join(dir, 'citus-migrate.yaml'),
        beforeSql: join(dir, 'before.sql'),
        expectedFile: join(dir, 'expected.sql'),
        fixtureFile,
        ...(existsSync(fixtureFile) ? { fixture: JSON.parse(readFileSync(fixtureFile, 'utf8')) as CatalogDoc } : {}),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Makes a catalog document independent of the run: colocation ids, ports and database name. */
export function normalizeFixture(doc: CatalogDoc): CatalogDoc {
  const ids = new Map<number, number>();
  const remap = (id: number | null): number | null => {
    if (id === null || id === 0) return id;
    if (!ids.has(id)) ids.set(id, ids.size + 1);
    return ids.get(id)!;
  };
  // Planner statistics change when autovacuum analyzes: not part of a layout. Nor is whether a
  // table has a TOAST table; its storage parameters are, when it has any.
  const tables = doc.tables.map(({ rows: _rows, bytes: _bytes, toast: _toast, options, toastOptions, ...t }) => {
    const kept = { ...t, ...(options ? { options } : {}), ...(toastOptions ? { toastOptions } : {}) };
    return kept.citus ? { ...kept, citus: { ...kept.citus, colocationId: remap(kept.citus.colocationId)! } } : kept;
  });
  // The server's roles are the machine's (other tests make theirs), not the layout's; so is the
  // role that reads the catalog (the test cluster's user), and so are the privileges of what the
  // extensions (Citus's build) and initdb made.
  const { roles: _roles, reader: _reader, extensionAcls: _extensionAcls, ...rest } = doc;
  return {
    ...rest,
    // output_plugin_libraries exists from PostgreSQL 15.19 on: a setting of the machine, not of the layout.
    server: {
      ...doc.server,
      database: 'scenario',
      // The minor release is the machine's (Debian's package moves), not the layout's.
      version: doc.server.version.split(/[ .]/)[0]!,
      versionNum: Math.floor(doc.server.versionNum / 10000) * 10000,
      outputPlugins: undefined,
      // The lock table's size: the machine's settings too (the test cluster raises max_connections).
      maxLocks: undefined,
      maxConnections: undefined,
      maxPrepared: undefined,
    },
    tables,
    routines: doc.routines.map((r) =>
      r.distribution
        ? { ...r, distribution: { ...r.distribution, colocationId: remap(r.distribution.colocationId) } }
        : r,
    ),
    nodes: doc.nodes.map((n, i) => ({ ...n, id: i + 1, host: 'localhost', port: 9700 + n.group })),
  };
}

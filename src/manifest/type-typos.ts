// A column type one edit away from a built-in type (`txet`, `integr`, `timestmap`) that the
// manifest declares nowhere is a typo: PostgreSQL would refuse it at apply ("type … does not
// exist"). A type of one's own created elsewhere is written with its schema (public.txet), which
// this leaves alone.
import { isBuiltinType, builtinTypeSpellings, parseTypeText } from '../sql/pg-parse.js';
import type { SqlObject } from '../model/types.js';
import type { ProblemList } from './problems.js';
import type { Manifest } from './schema.js';
import { closestName } from './suggest.js';

// Built-in types outside the names the model maps (pg_type's other base and range types): never typos.
const OTHER_BUILTINS: ReadonlySet<string> = new Set([
  'xid',
  'xid8',
  'cid',
  'tid',
  'pg_lsn',
  'int2vector',
  'oidvector',
  'aclitem',
  'refcursor',
  'record',
  'jsonpath',
  'txid_snapshot',
  'pg_snapshot',
  'daterange',
  'int4range',
  'int8range',
  'numrange',
  'tsrange',
  'tstzrange',
  'datemultirange',
  'int4multirange',
  'int8multirange',
  'nummultirange',
  'tsmultirange',
  'tstzmultirange',
  'timestamp',
  'timestamptz',
  'smallserial',
  'serial',
  'bigserial',
]);

/** The type's one name when it is written without a schema (array bounds and modifiers aside). */
function bareTypeName(text: string): string | undefined {
  let base: string;
  try {
    base = parseTypeText(text).base.replace(/(\[\])+$/, ''); // read (and kept) by the column's resolve already
  } catch {
    return undefined;
  }
  if (base.startsWith('"'))
    return base.endsWith('"') && !base.slice(1, -1).includes('"') ? base.slice(1, -1) : undefined;
  return base.includes('.') ? undefined : base;
}

export function typeTypoProblems(
  m: Manifest,
  objects: Readonly<Record<string, SqlObject>>,
  problems: ProblemList,
): void {
  const declared = new Set(
    Object.values(objects).flatMap((o) =>
      o.provides.filter((p) => p.startsWith('type ')).map((p) => p.slice(p.lastIndexOf('.') + 1).replace(/"/g, '')),
    ),
  );
  const builtins = builtinTypeSpellings();
  const known = new Set([...builtins, ...OTHER_BUILTINS]);
  for (const [key, t] of Object.entries(m.tables)) {
    for (const [name, spec] of Object.entries(t.columns ?? {})) {
      const text = typeof spec === 'string' ? spec : spec?.type;
      if (typeof text !== 'string') continue;
      const bare = bareTypeName(text);
      if (bare === undefined || known.has(bare) || isBuiltinType(bare) || declared.has(bare)) continue;
      const near = closestName(bare, builtins, 1);
      if (near === undefined) continue;
      problems.error(
        typeof spec === 'string' ? ['tables', key, 'columns', name] : ['tables', key, 'columns', name, 'type'],
        'unknown_type',
        `type ${JSON.stringify(bare)} is not a built-in type and the manifest declares none of that name: did you mean ${JSON.stringify(near)}? (a type of your own created elsewhere: write it with its schema, e.g. public.${bare})`,
      );
    }
  }
}

// A text search configuration whose mappings change is changed in place: its mappings dropped
// (DROP MAPPING IF EXISTS for every token type it maps now) and the declared ones added again.
// Dropped and created instead, PostgreSQL would refuse it while a generated column, an index or a
// view uses it. Only when the declaration names its parser (PARSER = …) as the cluster's has it;
// one made with COPY = … is created again. Pure.
import type { SqlObject } from '../../model/types.js';
import { strings, tryParseStatements, type Node } from '../../sql/pg-parse.js';

/** The parser of a CREATE TEXT SEARCH CONFIGURATION, as `schema.name` without quotes (pg_catalog's bare). */
function parserOf(stmt: string | undefined): string | undefined {
  const s = stmt === undefined ? undefined : tryParseStatements(stmt)?.[0]?.stmt?.DefineStmt;
  if (s?.kind !== 'OBJECT_TSCONFIGURATION') return undefined;
  const p = (s.definition ?? []).find((d: Node) => d.DefElem?.defname === 'parser')?.DefElem.arg?.TypeName;
  return p
    ? strings(p.names)
        .filter((n, i, all) => !(i === 0 && n === 'pg_catalog' && all.length > 1))
        .join('.')
    : undefined;
}

/** The token types an ALTER TEXT SEARCH CONFIGURATION … ADD MAPPING FOR names. */
function tokensOf(stmt: string): string[] {
  const s = tryParseStatements(stmt)?.[0]?.stmt?.AlterTSConfigurationStmt;
  return s ? strings(s.tokentype) : [];
}

/** The statements that change `a` into `d` in place, or undefined when it must be created again. */
export function textSearchMappingChange(d: SqlObject, a: SqlObject): string[] | undefined {
  const parser = parserOf(d.create[0]);
  if (parser === undefined || parser !== parserOf(a.create[0])) return undefined;
  const mapped = [...new Set(a.create.slice(1).flatMap(tokensOf))];
  return [
    // (its name as the catalog spells it, qualified: the declared statements run under the manifest's schema)
    ...(mapped.length > 0
      ? [`ALTER TEXT SEARCH CONFIGURATION ${a.name} DROP MAPPING IF EXISTS FOR ${mapped.join(', ')}`]
      : []),
    ...d.create.slice(1),
  ];
}

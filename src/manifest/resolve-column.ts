// One column of a manifest table: its type, default, identity, generation expression and
// collation, each checked by PostgreSQL's parser and against the others.
import type { Column, ColumnStorage } from '../model/types.js';
import { checkExpression, ParseFailure, parseTypeText, tryParseStatements, type TypeInfo } from '../sql/pg-parse.js';
import type { Path } from './locate.js';
import type { ProblemList } from './problems.js';
import { resolveIdentity } from './resolve-identity.js';
import type { ManifestColumn } from './schema.js';

/** The model's column for a manifest column spec; undefined (with a located problem) when it is not valid. */
export function resolveColumn(
  name: string,
  spec: ManifestColumn,
  path: Path,
  problems: ProblemList,
): Column | undefined {
  const text = typeof spec === 'string' ? spec : spec.type;
  const typePath = typeof spec === 'string' ? path : [...path, 'type'];
  let type: TypeInfo;
  try {
    type = parseTypeText(text);
  } catch (e) {
    problems.error(typePath, 'invalid_type_name', `type ${JSON.stringify(text)}: ${(e as Error).message}`);
    return undefined;
  }
  let dflt: string | undefined;
  if (typeof spec !== 'string' && spec.default !== undefined) {
    dflt = String(spec.default);
    try {
      checkExpression(dflt);
    } catch (e) {
      problems.error(
        [...path, 'default'],
        'invalid_default',
        `default ${JSON.stringify(dflt)}: ${(e as ParseFailure).message}`,
      );
      return undefined;
    }
    // A bare word is a column reference to PostgreSQL, never valid in a default: YAML's quotes
    // (default: 'active') are not SQL's.
    const named = columnNamed(dflt);
    if (named !== undefined) {
      problems.error(
        [...path, 'default'],
        'default_column_reference',
        `default ${JSON.stringify(dflt)} names ${JSON.stringify(named)} as a column, which a default cannot; for the string, put SQL quotes inside the YAML ones: default: "'${dflt.replace(/'/g, "''")}'"`,
      );
      return undefined;
    }
  }
  const spec2 = typeof spec === 'string' ? undefined : spec;
  if (spec2?.generated !== undefined) {
    try {
      checkExpression(spec2.generated);
    } catch (e) {
      problems.error(
        [...path, 'generated'],
        'invalid_generated',
        `generated ${JSON.stringify(spec2.generated)}: ${(e as ParseFailure).message}`,
      );
      return undefined;
    }
  }
  if (spec2?.using !== undefined) {
    try {
      checkExpression(spec2.using);
    } catch (e) {
      problems.error(
        [...path, 'using'],
        'invalid_using',
        `using ${JSON.stringify(spec2.using)}: ${(e as ParseFailure).message}`,
      );
      return undefined;
    }
  }
  const exclusive = (['default', 'identity', 'generated'] as const).filter((k) => spec2?.[k] !== undefined);
  if (exclusive.length > 1 || (type.serial && exclusive.length > 0)) {
    problems.error(
      path,
      'conflicting_column_options',
      `a column has at most one of default, identity, generated${type.serial ? ' (and a serial column none of them)' : ''}: this one has ${[...(type.serial ? ['serial'] : []), ...exclusive].join(', ')}`,
    );
    return undefined;
  }
  const identity =
    spec2?.identity !== undefined ? resolveIdentity(type, spec2.identity, [...path, 'identity'], problems) : {};
  if (identity === undefined) return undefined;
  // PostgreSQL makes every serial column NOT NULL; a manifest cannot ask otherwise.
  if (type.serial && typeof spec !== 'string' && spec.not_null === false) {
    problems.error(
      [...path, 'not_null'],
      'serial_nullable',
      `a ${text} column is always NOT NULL in PostgreSQL: remove not_null: false`,
    );
    return undefined;
  }
  // An identity column is NOT NULL in PostgreSQL, like a serial one.
  const notNull = type.serial === true || spec2?.identity !== undefined || spec2?.not_null === true;
  return {
    name,
    type,
    notNull,
    ...(dflt !== undefined ? { default: dflt } : {}),
    ...identity,
    ...(spec2?.generated ? { generated: spec2.generated } : {}),
    ...(typeof spec2?.collation === 'string' ? { collation: spec2.collation } : {}),
    ...(typeof spec2?.collation === 'object'
      ? { collation: spec2.collation.name, collationSchema: spec2.collation.schema }
      : {}),
    ...(spec2?.storage && spec2.storage !== builtinStorage(type) ? { storage: spec2.storage } : {}),
    ...(spec2?.statistics !== undefined ? { statistics: spec2.statistics } : {}),
    ...(spec2?.compression !== undefined ? { compression: spec2.compression } : {}),
    ...(spec2?.options !== undefined && Object.keys(spec2.options).length > 0
      ? { options: Object.fromEntries(Object.entries(spec2.options).map(([k, v]) => [k, String(v)])) }
      : {}),
    ...(spec2?.using !== undefined ? { using: spec2.using } : {}),
    ...(spec2?.renamed_from !== undefined ? { renamedFrom: spec2.renamed_from } : {}),
  };
}

// The storage of built-in types (pg_type.typstorage): declaring it is declaring nothing.
const PLAIN = new Set(['smallint', 'integer', 'bigint', 'real', 'double precision', 'boolean', 'date', 'uuid']);
const EXTENDED = new Set(['text', 'character varying', 'character', 'bytea', 'json', 'jsonb', 'xml']);

/** The storage PostgreSQL gives a column of a built-in type, when known. */
function builtinStorage(type: TypeInfo): ColumnStorage | undefined {
  if (type.base.endsWith('[]') || EXTENDED.has(type.base)) return 'extended';
  if (PLAIN.has(type.base) || /^(timestamp|time) with(out)? time zone$/.test(type.base)) return 'plain';
  if (type.base === 'numeric') return 'main';
  return undefined;
}

/** The first column an expression names (a ColumnRef), or undefined. */
function columnNamed(expression: string): string | undefined {
  const stack: unknown[] = [tryParseStatements(`SELECT ${expression}`)];
  while (stack.length > 0) {
    const n = stack.pop();
    if (n === null || typeof n !== 'object') continue;
    const ref = (n as { ColumnRef?: { fields?: { String?: { sval: string } }[] } }).ColumnRef;
    if (ref) return (ref.fields ?? []).map((f) => f.String?.sval ?? '*').join('.');
    stack.push(...Object.values(n));
  }
  return undefined;
}

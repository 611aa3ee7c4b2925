// docs/manifest.md, generated from the zod schema (through its JSON Schema, with each key's
// description), so the reference lists every key and cannot drift: a unit test compares the file
// with this output (`npm run docs` writes it).
import { manifestJsonSchema } from './json-schema.js';

type Json = Record<string, unknown>;
interface Section {
  readonly path: string;
  readonly note: string;
  readonly rows: string[];
}

const code = (s: string): string => `\`${s}\``;

function typeOf(s: Json): string {
  if ('const' in s) return code(JSON.stringify(s.const));
  if (Array.isArray(s.enum)) return s.enum.map((v) => code(String(v))).join(' | ');
  if (Array.isArray(s.anyOf)) return [...new Set((s.anyOf as Json[]).map(typeOf))].join(' or ');
  if (s.type === 'array') {
    if (Array.isArray(s.prefixItems)) return `[${(s.prefixItems as Json[]).map(typeOf).join(', ')}]`;
    return `list of ${typeOf((s.items ?? {}) as Json)}`;
  }
  if (s.type === 'object')
    return s.additionalProperties && typeof s.additionalProperties === 'object' ? 'map' : 'object';
  if (s.type === 'integer') {
    // zod's safe-integer bounds (±2^53) say nothing a user needs.
    const min = s.minimum !== undefined && Number(s.minimum) > -1e9 ? Number(s.minimum) : undefined;
    const max = s.maximum !== undefined && Number(s.maximum) < 1e9 ? Number(s.maximum) : undefined;
    const range = min !== undefined && max !== undefined ? ` ${min}–${max}` : min !== undefined ? ` ≥ ${min}` : '';
    return `integer${range}`;
  }
  return Array.isArray(s.type) ? s.type.join(' or ') : String(s.type ?? 'any');
}

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function rows(obj: Json, required: readonly string[]): string[] {
  const props = (obj.properties ?? {}) as Record<string, Json>;
  return Object.entries(props).map(([key, s]) => {
    const dflt = 'default' in s ? code(JSON.stringify(s.default)) : required.includes(key) ? 'required' : '';
    return `| ${code(key)} | ${cell(typeOf(s))} | ${cell(dflt)} | ${cell(String(s.description ?? ''))} |`;
  });
}

/** Every object the schema holds, by the path a user writes (`tables.<name>.columns.<name>`). */
function sections(s: Json, path: string, note: string, out: Section[]): void {
  const alternatives = Array.isArray(s.anyOf)
    ? (s.anyOf as Json[]).filter((x) => x.type === 'object' && x.properties)
    : [];
  if (alternatives.length > 1) {
    // One key of several (a generator): one table, each row one way to write it.
    out.push({
      path,
      note: `${note}${note ? '. ' : ''}Exactly one of these keys`,
      rows: alternatives.flatMap((o) => rows(o, [])),
    });
    return;
  }
  for (const o of alternatives.length ? alternatives : s.type === 'object' && s.properties ? [s] : []) {
    out.push({ path, note, rows: rows(o, (o.required ?? []) as string[]) });
    for (const [key, child] of Object.entries((o.properties ?? {}) as Record<string, Json>))
      walk(child, `${path}${path ? '.' : ''}${key}`, out);
  }
}

// The schema's shared definitions (a partition's partitions are partitions: `$ref`), and those
// a walk is inside: a definition is listed once, where it is first met.
let defs: Record<string, Json> = {};
const inside = new Set<string>();

function walk(s: Json, path: string, out: Section[]): void {
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object') {
    let inner = s.additionalProperties as Json;
    const ref = typeof inner.$ref === 'string' ? inner.$ref.replace(/^#\/\$defs\//, '') : undefined;
    if (ref !== undefined) {
      if (inside.has(ref) || !defs[ref]) return;
      inner = defs[ref]!;
      inside.add(ref);
      sections(inner, `${path}.<name>`, String(inner.description ?? s.description ?? ''), out);
      inside.delete(ref);
      return;
    }
    sections(inner, `${path}.<name>`, String(inner.description ?? s.description ?? ''), out);
  } else if (s.type === 'array' && s.items && typeof s.items === 'object') {
    sections(s.items as Json, `${path}[]`, String(s.description ?? ''), out);
  } else {
    sections(s, path, String(s.description ?? ''), out);
  }
}

const EXAMPLE = `version: 1
defaults: { schema: public, shard_count: 32 }
colocation:
  tenants: { shard_count: 32, anchor: accounts }
tables:
  accounts:
    distributed_by: account_id
    colocation: tenants
    columns:
      account_id: { type: bigint, not_null: true }
      name: text
      created: { type: timestamptz, default: now() }
    primary_key: [account_id]
  orders:
    distributed_by: account_id
    colocation: tenants
    columns:
      account_id: { type: bigint, not_null: true }
      id: { type: bigint, identity: by default }
      plan: text
    primary_key: [account_id, id]
    indexes: [ { columns: [account_id, plan] } ]
    foreign_keys:
      - { columns: [account_id], references: accounts, ref_columns: [account_id], on_delete: cascade }
  plans: { reference: true, columns: { id: text, price: "numeric(10,2)" }, primary_key: [id] }
sequences:
  invoice_no: { cache: 100 }
routines:
  place_order: { file: routines/place_order.sql, distributed_by: p_account, colocation: tenants }
sql: [sql]
bench:
  clients: 8
  duration: 30s
  workloads:
    order: { sql: "CALL place_order($1, $2)", params: [ { int: [1, { max: accounts.account_id }] }, { pick: [free, pro] } ] }
prune: false
ignore: ["table staging.*"]
`;

/** The markdown reference. */
export function manifestReference(): string {
  const out: Section[] = [];
  const schema = manifestJsonSchema() as Json;
  defs = (schema.$defs ?? {}) as Record<string, Json>;
  sections(schema, '', 'the top level', out);
  const lines = [
    '# Manifest reference (format version 1)',
    '',
    '<!-- Generated from src/manifest/schema.ts by `npm run docs`; test/unit/manifest-reference.test.ts checks it. Do not edit by hand. -->',
    '',
    'A manifest is YAML (or JSON), `citus-migrate.yaml` by default. Unknown keys are errors, with',
    'the closest known key suggested. Cross-key rules (colocation types, keys that must include the',
    'distribution column, foreign keys Citus accepts, routine arguments, bench placeholders) are',
    'checked by `validate` and reported at `file:line:col`. The JSON Schema editors use is',
    '`schema/manifest-v1.schema.json`.',
    '',
    '## Example',
    '',
    '```yaml',
    EXAMPLE.trimEnd(),
    '```',
  ];
  for (const s of out) {
    lines.push('', `## ${s.path ? code(s.path) : 'Top level'}`, '');
    if (s.note && s.path) lines.push(`${s.note[0]!.toUpperCase()}${s.note.slice(1)}.`, '');
    lines.push('| key | type | default | meaning |', '|---|---|---|---|', ...s.rows);
  }
  return `${lines.join('\n')}\n`;
}

/** The example above, for the test that it validates. */
export const REFERENCE_EXAMPLE = EXAMPLE;

// The manifest's ignore list: globs over what a plan prints; ignored objects are neither listed
// nor pruned.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { planLive } from '../../src/plan/from-manifest.js';
import { formatPlan } from '../../src/format/index.js';
import { catalogToModel } from '../../src/introspect/to-model.js';
import { loadManifestText } from '../../src/manifest/load.js';
import { ignoreMatcher } from '../../src/plan/ignore.js';
import { scenarios } from '../support/scenarios.js';

const fixture = (name: string) => catalogToModel(scenarios().find((s) => s.name === name)!.fixture!);

describe('ignore', () => {
  it('matches whole lines with * and ?, and nothing when empty', () => {
    const m = ignoreMatcher(['table staging.*', 'trigger public.audit_?', 'column public.t.legacy_*']);
    expect(['table staging.x', 'trigger public.audit_1', 'column public.t.legacy_a'].map(m)).toEqual([
      true,
      true,
      true,
    ]);
    expect(['table public.staging', 'trigger public.audit_12', 'view staging.x', 'column public.t.new'].map(m)).toEqual(
      [false, false, false, false],
    );
    expect(ignoreMatcher([])('table x')).toBe(false);
    expect(ignoreMatcher(['table a.(b)'])('table a.(b)')).toBe(true); // regex characters are literal
  });

  it("the guide's example (docs/guide/sql-files.md) keeps every kind of object of another team's schema out of prune", () => {
    const m = ignoreMatcher(['* staging.*']);
    const lines = [
      'table staging.events',
      'view staging.v',
      'materialized view staging.mv',
      'sequence staging.events_seq',
      'routine staging.load(integer)',
      'enum staging.kind',
      'index staging.events_ts',
      'trigger staging.events.touch',
      'policy staging.events.tenant',
      'row level security staging.events',
      'privileges table staging.events to loader',
      'comment on table staging.events',
    ];
    expect(lines.filter((l) => !m(l))).toEqual([]);
    expect(['table public.staging', 'view public.staging_v', 'table public.x'].map(m)).toEqual([false, false, false]);
    // The narrower glob leaves the schema's other objects to prune.
    expect(lines.filter((l) => !ignoreMatcher(['table staging.*'])(l))).toHaveLength(lines.length - 1);
  });

  it('keeps the glob semantics within a part: * any run (even empty, even a newline), ? exactly one, the whole text', () => {
    const m = (g: string, t: string) => ignoreMatcher([g])(t);
    expect([m('a*', 'a'), m('*', ''), m('a*b', 'a x\ny b'), m('?', 'é'), m(' table x ', 'table x')]).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([m('a?', 'a'), m('a', 'ab'), m('*b', 'ba'), m('a*b*c', 'abcb'), m('', 'x')]).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('anchors a glob on the schema: * and ? never match the dot after it', () => {
    const m = (g: string, t: string, schema?: string) => ignoreMatcher([g], schema)(t);
    // A glob meant for app never reaches public, and no * reaches from the kind into a name.
    expect(m('routine app.tmp_*', 'routine public.x_tmp_y()')).toBe(false);
    expect(m('* app.*', 'routine public.app_x()')).toBe(false);
    expect(m('* app*', 'routine app.f()')).toBe(false); // "app*" is unqualified: public's objects
    expect(m('routine app?tmp_f()', 'routine app.tmp_f()')).toBe(false);
    expect(m('*tmp*', 'routine app.x_tmp_y()')).toBe(false);
    expect(m('* *.*', 'routine app.f()')).toBe(true); // every schema, said in so many words
    expect(m('routine app.tmp_*', 'routine app.tmp_f(integer)')).toBe(true);
    expect(m('* app.*', 'trigger app.t.trg')).toBe(true); // the rest of the line may hold dots
    expect(m('* app.*', 'privileges table app.t to reader')).toBe(true);
    // The schema part is matched whole: "app" is not "app2", a glob on it says so.
    expect([m('* app.*', 'table app2.t'), m('* app*.*', 'table app2.t')]).toEqual([false, true]);
    // Quoted names: a dot inside quotes is part of the name.
    expect(m('table "a.b".*', 'table "a.b".t')).toBe(true);
    expect(m('table a.*', 'table "a.b".t')).toBe(false);
    expect(m('table "x.*', 'table "x.y".t')).toBe(false); // an unclosed quote: unqualified, and "x.y" is not public
  });

  it('reads a glob without a schema as naming the default schema, and objects in no schema', () => {
    const m = (g: string, t: string, schema?: string) => ignoreMatcher([g], schema)(t);
    expect(m('routine *_tmp_*', 'routine public.x_tmp_y()')).toBe(true);
    expect(m('routine *_tmp_*', 'routine app.x_tmp_y()')).toBe(false);
    expect(m('routine *_tmp_*', 'routine app.x_tmp_y()', 'app')).toBe(true);
    expect(m('routine *_tmp_*', 'routine public.x_tmp_y()', 'app')).toBe(false);
    expect(m('policy t.*', 'policy public.t.open')).toBe(false); // "t." names schema t
    expect(m('policy *', 'policy public.t.open')).toBe(true);
    expect(m('index * on t *', 'index t_x on public.t (a)')).toBe(true);
    expect(m('index * on t *', 'index t_x on app.t (a)')).toBe(false);
    expect(m('column t.*', 'column public.t.c')).toBe(false);
    expect(m('* "My Schema".*', 'table "My Schema".t')).toBe(true);
    expect(m('table *', 'table "My Schema".t', 'My Schema')).toBe(true);
    // Objects that belong to no schema: the whole line.
    expect([m('schema spare', 'schema spare'), m('extension *', 'extension pg_trgm')]).toEqual([true, true]);
    expect(m('* *', 'publication pub', 'app')).toBe(true);
  });

  // Time is only a hang guard here: the regex this replaced took ~10 s on 40 a's (n^11 backtracking),
  // and never finished on longer names; the matcher takes a moment.
  it('matches a pathological glob against a long name without backtracking', { timeout: 3000 }, () => {
    const name = `table ${'a'.repeat(40)}`;
    const m = ignoreMatcher(['table a*a*a*a*a*a*a*a*a*a*a*b']);
    expect(m(name)).toBe(false);
    expect(m(`${name}b`)).toBe(true);
  });

  it('an ignored object is not listed: the plan is "No changes"', async () => {
    const s = scenarios().find((x) => x.name === '11-converged')!;
    const m = await loadManifestText(
      `${readFileSync(s.manifest, 'utf8')}ignore: ["table public.ex*"]\n`,
      'm.yaml',
      s.dir,
    );
    const plan = planLive(m, fixture('11-converged'), 'm.yaml');
    expect(plan.unmanaged).toEqual([]);
    expect(formatPlan(plan, 'text').split('\n')[1]).toBe('No changes: the cluster matches the manifest.');
  });

  it('an ignored object is not pruned', async () => {
    const text =
      'version: 1\nprune: true\nignore: ["table public.stray", "sequence *"]\ntables:\n  keep: { reference: true }\n';
    const plan = planLive(
      await loadManifestText(text, 'm.yaml', process.cwd()),
      fixture('10-unmanaged-and-prune'),
      'm.yaml',
    );
    expect(plan.transaction.steps.map((s) => s.summary)).toEqual([
      'make public.keep a reference table (copies its rows to every node)',
      "remove the coordinator's local copy of public.keep's rows (they are in the shards now)",
      'drop function public.stray_fn() (prune)',
    ]);
  });
});

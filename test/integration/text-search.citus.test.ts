// Text search dictionaries and configurations on Citus: Citus propagates both, so a distributed
// table's generated column and index that name a configuration the plan makes work on the
// shards; a change of its mappings is made in place, with the table still using it.
import { describe, expect, it } from 'vitest';
import { citusServers, freshDatabase, sql } from '../support/db.js';
import { projectDir } from '../support/project.js';
import { cli } from '../support/run-cli.js';

const citus = citusServers();

const MANIFEST = `version: 1
defaults: { schema: app }
tables:
  doc:
    distributed_by: id
    shard_count: 4
    columns:
      id: bigint
      body: text
      tsv: { type: tsvector, generated: "to_tsvector('app.myconf'::regconfig, body)" }
sql: [search.sql]
`;
// Declared with its parser (as introspect writes it), its mapping changes in place; declared with
// COPY = …, it would be dropped and created again, which PostgreSQL refuses while the table uses it.
const search = (mapping: string): string =>
  `CREATE TEXT SEARCH DICTIONARY english_nostop (TEMPLATE = snowball, language = 'english');
CREATE TEXT SEARCH CONFIGURATION myconf (PARSER = pg_catalog."default");
ALTER TEXT SEARCH CONFIGURATION myconf ADD MAPPING FOR asciiword WITH ${mapping};
`;

describe.skipIf(!citus)('text search on Citus', () => {
  it('a configuration and its dictionary reach the workers; its mappings change in place under a distributed table', async () => {
    const db = await freshDatabase(citus!, 'text_search');
    const first = projectDir({ 'citus-migrate.yaml': MANIFEST, 'search.sql': search('english_nostop') });
    const r = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: first });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(
          citus!,
          db.name,
          [
            "SELECT (SELECT count(*)::int FROM pg_ts_config WHERE cfgname = 'myconf') AS configs, (SELECT count(*)::int FROM pg_ts_dict WHERE dictname = 'english_nostop') AS dicts",
          ],
          n,
        ),
      ).toEqual([{ configs: 1, dicts: 1 }]);
    await sql(citus!, db.name, ["INSERT INTO app.doc (id, body) VALUES (1, 'The running dogs'), (2, 'a cat')"]);
    // english_nostop keeps stop words ("the"); simple keeps words as they are.
    expect(await sql(citus!, db.name, ['SELECT tsv::text AS tsv FROM app.doc WHERE id = 1'])).toEqual([
      { tsv: "'dog':3 'run':2 'the':1" },
    ]);
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: first })).code).toBe(0);
    const changed = projectDir({ 'citus-migrate.yaml': MANIFEST, 'search.sql': search('simple') });
    const c = await cli(['apply', '--database', db.url, '--auto-approve'], { cwd: changed });
    expect(c.code, c.stdout + c.stderr).toBe(0);
    expect(c.stdout + c.stderr).toContain('change text search configuration app.myconf');
    expect((await cli(['plan', '--database', db.url, '--detailed-exitcode'], { cwd: changed })).code).toBe(0);
    for (let n = 1; n < citus!.nodes.length; n++)
      expect(
        await sql(citus!, db.name, ["SELECT to_tsvector('app.myconf', 'The running dogs')::text AS v"], n),
      ).toEqual([{ v: "'dogs':3 'running':2 'the':1" }]);
  });
});

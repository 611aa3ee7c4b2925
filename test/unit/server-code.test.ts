// Objects built on the server's code in sql: files: access methods, foreign data wrappers,
// procedural languages, transforms and event triggers. Named as DROP names them, needing the
// functions they name (but PostgreSQL's own), compared with what the catalog prints.
import { beforeAll, describe, expect, it } from 'vitest';
import { objectsFromSql } from '../../src/objects/from-sql.js';
import { objectKey } from '../../src/objects/key.js';
import { loadParser } from '../../src/sql/pg-parse.js';
import { baseTypeProblems, textSearchTemplateProblems } from '../../src/plan/checks/server-code-problems.js';
import type { ClusterModel } from '../../src/model/types.js';

beforeAll(async () => {
  await loadParser();
});

const read = (text: string, schema = 'app') => objectsFromSql([{ file: 's.sql', text }], schema, () => '');

describe('objects built on the server’s code', () => {
  it('are read with their comments and owners, and need the functions of the files', () => {
    const { objects, problems } = read(`CREATE ACCESS METHOD heap2 TYPE TABLE HANDLER heap_tableam_handler;
CREATE FOREIGN DATA WRAPPER w HANDLER codecs.h VALIDATOR postgresql_fdw_validator OPTIONS (debug 'true');
CREATE SERVER s FOREIGN DATA WRAPPER w;
CREATE TRUSTED LANGUAGE pl HANDLER plh INLINE pg_catalog.plpgsql_inline_handler;
CREATE TRANSFORM FOR mood LANGUAGE pl (FROM SQL WITH FUNCTION pg_catalog.gtsvector_compress(internal));
CREATE EVENT TRIGGER e ON ddl_command_end WHEN TAG IN ('create table') EXECUTE FUNCTION on_ddl();
ALTER EVENT TRIGGER e DISABLE;
COMMENT ON ACCESS METHOD heap2 IS 'a';
COMMENT ON LANGUAGE pl IS 'b';
COMMENT ON TRANSFORM FOR mood LANGUAGE pl IS 'c';
ALTER LANGUAGE pl OWNER TO r;
ALTER EVENT TRIGGER e OWNER TO r;
`);
    expect(problems).toEqual([]);
    expect(Object.keys(objects).sort()).toEqual([
      'access method heap2',
      'comment on access method heap2',
      'comment on language pl',
      'comment on transform FOR app.mood LANGUAGE pl',
      'event trigger e',
      'foreign data wrapper w',
      'foreign server s',
      'language pl',
      'owner of event trigger e',
      'owner of language pl',
      'transform for app.mood language pl',
    ]);
    // An unqualified function may be one the files make in the default schema: after it if so.
    expect(objects['access method heap2']!.deps).toEqual(['routine app.heap_tableam_handler']);
    expect(objects['foreign data wrapper w']!.deps).toEqual([
      'routine codecs.h',
      'routine app.postgresql_fdw_validator',
    ]);
    expect(objects['foreign server s']!.deps).toContain('foreign data wrapper w');
    expect(objects['language pl']!.deps).toEqual(['routine app.plh']);
    expect(objects['transform for app.mood language pl']!.deps).toEqual(['type app.mood', 'language pl']);
    expect(objects['event trigger e']!.deps).toEqual(['routine app.on_ddl']);
    expect(objects['event trigger e']!.create).toHaveLength(2);
    expect(objects['comment on transform FOR app.mood LANGUAGE pl']!.parent).toBe('transform for app.mood language pl');
  });

  it("as written equal the catalog's form: pg_catalog's and public's functions unqualified, tags upper case", () => {
    const same = (declared: string, catalog: string) =>
      expect(objectKey([declared], 'public')).toBe(objectKey([catalog], 'public'));
    same(
      'CREATE ACCESS METHOD a TYPE INDEX HANDLER pg_catalog.gisthandler',
      'CREATE ACCESS METHOD a TYPE INDEX HANDLER gisthandler',
    );
    same('CREATE FOREIGN DATA WRAPPER w VALIDATOR public.v', 'CREATE FOREIGN DATA WRAPPER w VALIDATOR v');
    same('CREATE LANGUAGE pl HANDLER public.h', 'CREATE PROCEDURAL LANGUAGE pl HANDLER h');
    same(
      "CREATE EVENT TRIGGER e ON ddl_command_end WHEN TAG IN ('create table') EXECUTE PROCEDURE public.f()",
      "CREATE EVENT TRIGGER e ON ddl_command_end WHEN TAG IN ('CREATE TABLE') EXECUTE FUNCTION f()",
    );
    const differ = (a: string, b: string) => expect(objectKey([a], 'public')).not.toBe(objectKey([b], 'public'));
    differ('CREATE TRUSTED LANGUAGE pl HANDLER h', 'CREATE LANGUAGE pl HANDLER h');
    differ('CREATE ACCESS METHOD a TYPE INDEX HANDLER app.h', 'CREATE ACCESS METHOD a TYPE INDEX HANDLER h');
    differ("CREATE FOREIGN DATA WRAPPER w OPTIONS (a '1')", "CREATE FOREIGN DATA WRAPPER w OPTIONS (a '2')");
    differ(
      'CREATE EVENT TRIGGER e ON ddl_command_end EXECUTE FUNCTION f()',
      'CREATE EVENT TRIGGER e ON ddl_command_start EXECUTE FUNCTION f()',
    );
  });

  it('an event trigger is no longer refused; ALTER EVENT TRIGGER needs it declared first', () => {
    expect(read('ALTER EVENT TRIGGER e ENABLE ALWAYS;').problems.map((p) => p.code)).toEqual(['amends_undeclared']);
  });
});

describe('text search parsers and templates', () => {
  it('are read with their comments; a dictionary and a configuration need the ones the files make', () => {
    const { objects, problems } =
      read(`CREATE TEXT SEARCH TEMPLATE tmpl (LEXIZE = dsimple_lexize, INIT = pg_catalog.dsimple_init);
CREATE TEXT SEARCH PARSER prs (START = prsd_start, GETTOKEN = prsd_nexttoken, END = prsd_end, LEXTYPES = prsd_lextype);
CREATE TEXT SEARCH DICTIONARY dict (TEMPLATE = tmpl);
CREATE TEXT SEARCH DICTIONARY plain (TEMPLATE = simple);
CREATE TEXT SEARCH CONFIGURATION cfg (PARSER = prs);
COMMENT ON TEXT SEARCH PARSER prs IS 'p';
COMMENT ON TEXT SEARCH TEMPLATE tmpl IS 't';
`);
    expect(problems).toEqual([]);
    expect(objects['text search dictionary app.dict']!.deps).toEqual(['text search template app.tmpl']);
    expect(objects['text search dictionary app.plain']!.deps).toEqual([]);
    expect(objects['text search configuration app.cfg']!.deps).toEqual(['text search parser app.prs']);
    expect(objects['text search template app.tmpl']!.deps).toEqual(['routine app.dsimple_lexize']);
    expect(objects['comment on text search parser app.prs']!.parent).toBe('text search parser app.prs');
    expect(objects['comment on text search template app.tmpl']!.parent).toBe('text search template app.tmpl');
  });

  it("as written equal the catalog's form", () => {
    const key = (t: string) => objectKey([t], 'public');
    expect(key('CREATE TEXT SEARCH TEMPLATE t (LEXIZE = pg_catalog.dsimple_lexize)')).toBe(
      key('CREATE TEXT SEARCH TEMPLATE public.t (LEXIZE = dsimple_lexize)'),
    );
    expect(key('CREATE TEXT SEARCH TEMPLATE t (LEXIZE = dsimple_lexize)')).not.toBe(
      key('CREATE TEXT SEARCH TEMPLATE public.t (INIT = dsimple_init, LEXIZE = dsimple_lexize)'),
    );
  });

  it('on Citus, a dictionary on a template of the files is a plan problem', () => {
    const desired = {
      objects: read(`CREATE TEXT SEARCH TEMPLATE tmpl (LEXIZE = dsimple_lexize);
CREATE TEXT SEARCH DICTIONARY dict (TEMPLATE = tmpl);
CREATE TEXT SEARCH DICTIONARY plain (TEMPLATE = simple);
`).objects,
    } as unknown as ClusterModel;
    expect(textSearchTemplateProblems(desired).map((p) => `${p.code} ${p.object}`)).toEqual([
      'citus_text_search_template text search dictionary app.dict',
    ]);
  });
});

describe('base types', () => {
  const files = `CREATE TYPE int42;
CREATE FUNCTION int42_in(cstring) RETURNS int42 LANGUAGE internal IMMUTABLE STRICT AS 'int4in';
CREATE TYPE int42 (INPUT = int42_in, OUTPUT = public.int42_out, INTERNALLENGTH = 4, LIKE = bigint);
CREATE TYPE lonely;
`;
  it('are read after their shell, which goes with them; a lone shell is its own; they need their functions', () => {
    const { objects, problems } = read(files, 'public');
    expect(problems).toEqual([]);
    expect(Object.keys(objects).sort()).toEqual(['base type public.int42', 'shell type public.lonely']);
    expect(objects['base type public.int42']!.deps).toEqual([
      'shell type public.int42',
      'routine public.int42_in',
      'routine public.int42_out',
    ]);
  });

  it("as written equal the catalog's form: options in any order, functions unqualified", () => {
    const key = (t: string) => objectKey([t], 'public');
    expect(key('CREATE TYPE int42 (OUTPUT = public.int42_out, INPUT = int42_in, INTERNALLENGTH = 4)')).toBe(
      key('CREATE TYPE public.int42 (INTERNALLENGTH = 4, INPUT = int42_in, OUTPUT = int42_out)'),
    );
    expect(key('CREATE TYPE int42 (INPUT = int42_in, OUTPUT = int42_out, INTERNALLENGTH = 4)')).not.toBe(
      key('CREATE TYPE public.int42 (INTERNALLENGTH = 4, INPUT = int42_in, OUTPUT = int42_out, PASSEDBYVALUE)'),
    );
  });

  it('a Citus table with a column of one is a plan problem', () => {
    const desired = {
      objects: read(files, 'public').objects,
      tables: {
        t: {
          id: 'public.t',
          qname: { schema: 'public', name: 't' },
          distribution: { kind: 'reference' },
          columns: [{ name: 'b', type: { base: 'int42' } }],
        },
      },
    } as unknown as ClusterModel;
    expect(baseTypeProblems(desired).map((p) => `${p.code} ${p.object}`)).toEqual(['citus_base_type table public.t']);
  });
});

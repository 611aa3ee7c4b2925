// What the manifest reader reads of a project (#28.7, #28.9): only regular files whose real path
// is inside the project folder, at most 10 MB, strict UTF-8 with a BOM dropped; folder links
// followed inside the project, each folder once. Links and FIFOs are made here, in a temp folder.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, ManifestError } from '../../src/errors.js';
import { loadManifest, type LoadedManifest } from '../../src/manifest/load.js';

const VIEW = 'CREATE VIEW v AS SELECT 1 AS x;\n';
const ROUTINE = 'CREATE FUNCTION f(a int) RETURNS int LANGUAGE sql AS $$ SELECT a $$;\n';

/** A project folder with `files` (text or bytes) and a manifest; returns its path. */
function project(manifest: string, files: Record<string, string | Buffer> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'cm-files-'));
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(join(dir, rel, '..'), { recursive: true });
    writeFileSync(join(dir, rel), body);
  }
  writeFileSync(join(dir, 'm.yaml'), manifest);
  return dir;
}

/** The manifest's problems, formatted, or the loaded manifest. */
async function load(dir: string): Promise<string[] | LoadedManifest> {
  try {
    return await loadManifest(join(dir, 'm.yaml'), undefined, dir);
  } catch (e) {
    if (e instanceof ManifestError) return e.problems.map((p) => formatProblem({ ...p, file: 'm.yaml' }));
    throw e;
  }
}

const outside = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'cm-outside-'));
  writeFileSync(join(dir, 'secret.sql'), 'SECRET FIRST LINE;\n');
  return dir;
};

describe('files of the project', () => {
  it('refuses a sql: file or routine file that links outside the project, without reading it', async () => {
    const dir = project('version: 1\nsql: [link.sql]\nroutines:\n  f: { file: fn.sql }\n');
    const out = outside();
    symlinkSync(join(out, 'secret.sql'), join(dir, 'link.sql'));
    symlinkSync(join(out, 'secret.sql'), join(dir, 'fn.sql'));
    const problems = await load(dir);
    expect(problems).toEqual([
      'error: m.yaml:2:7: sql[0]: "link.sql" is outside the project directory (through a symbolic link)',
      'error: m.yaml:4:14: routines.f.file: file "fn.sql" is outside the project directory (through a symbolic link)',
    ]);
    expect(JSON.stringify(problems)).not.toContain('SECRET');
  });

  it('refuses a folder link that leads outside, follows one inside, and walks a link loop once', async () => {
    const dir = project('version: 1\nsql: [sql/]\n', {
      'sql/a.sql': VIEW,
      'common/b.sql': "COMMENT ON VIEW v IS 'b';\n",
    });
    symlinkSync('.', join(dir, 'sql', 'self1'));
    symlinkSync('..', join(dir, 'sql', 'up'));
    symlinkSync('../common', join(dir, 'sql', 'common'));
    const m = (await load(dir)) as LoadedManifest;
    // sql/up is the project folder, so common/ is reached once, as sql/common/b.sql (sorted first).
    expect(Object.values(m.desired.objects).map((o) => o.source)).toEqual(['sql/a.sql:1:1', 'sql/common/b.sql:1:1']);
    symlinkSync(outside(), join(dir, 'sql', 'zz-out'));
    expect(await load(dir)).toEqual([
      'error: m.yaml:2:7: sql[0]: "sql/zz-out" is outside the project directory (through a symbolic link)',
    ]);
  });

  it('lists a folder with many self-links in linear time', { timeout: 10_000 }, async () => {
    const dir = project('version: 1\nsql: [sql]\n', { 'sql/a.sql': VIEW });
    for (let i = 0; i < 20; i++) symlinkSync('.', join(dir, 'sql', `self${i}`));
    const m = (await load(dir)) as LoadedManifest;
    expect(Object.keys(m.desired.objects)).toEqual(['view public.v']);
  });

  it('refuses a FIFO and a file over 10 MB without reading them', { timeout: 10_000 }, async () => {
    const dir = project('version: 1\nsql: [big.sql]\nroutines:\n  f: { file: fifo.sql }\n', { 'big.sql': '' });
    execFileSync('mkfifo', [join(dir, 'fifo.sql')]);
    truncateSync(join(dir, 'big.sql'), 10 * 1024 * 1024 + 1); // sparse
    expect(await load(dir)).toEqual([
      'error: m.yaml:2:7: sql[0]: file "big.sql" is 10485761 bytes; a file may be at most 10485760 bytes',
      'error: m.yaml:4:14: routines.f.file: file "fifo.sql" is not a regular file (but a folder, FIFO, device…)',
    ]);
  });

  it('reports the first byte that is not UTF-8, in a SQL file and in the manifest', async () => {
    const latin1 = Buffer.from('CREATE VIEW v AS\n  SELECT 1 AS caf\xe9;\n', 'latin1');
    expect(await load(project('version: 1\nsql: [a.sql]\n', { 'a.sql': latin1 }))).toEqual([
      'error: m.yaml:2:7: sql[0]: a.sql:2:18: file "a.sql" is not UTF-8: byte 0xE9 at line 2, column 18 (offset 34) is not part of a UTF-8 character',
    ]);
    const dir = project('');
    writeFileSync(join(dir, 'm.yaml'), Buffer.from('version: 1\ntables:\n  caf\xe9: { local: true }\n', 'latin1'));
    expect(await load(dir)).toEqual([
      'error: m.yaml:3:6: is not UTF-8: byte 0xE9 at line 3, column 6 (offset 24) is not part of a UTF-8 character',
    ]);
  });

  it('drops a byte order mark in SQL and routine files, as in the manifest', async () => {
    const bom = '\ufeff';
    const dir = project(`${bom}version: 1\nsql: [a.sql]\nroutines:\n  f: { file: f.sql }\n`, {
      'a.sql': `${bom}${VIEW}`,
      'f.sql': `${bom}${ROUTINE}`,
    });
    const m = (await load(dir)) as LoadedManifest;
    expect(m.desired.objects['view public.v']?.create).toEqual(['CREATE VIEW v AS SELECT 1 AS x']);
    expect(m.desired.objects['view public.v']?.source).toBe('a.sql:1:1');
    expect(m.desired.routines['public.f(integer)']?.definition?.startsWith('CREATE FUNCTION')).toBe(true);
  });
});

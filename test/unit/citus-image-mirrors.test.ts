// test/support/citus-image.sh finds the Debian mirrors in deb822 sources (Debian 12's only format by
// default, no /etc/apt/sources.list) and in one-line lists; with none it says why (exit 1), where it
// used to end under `set -euo pipefail` at the grep of the missing file, without a word (exit 2).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(import.meta.dirname, '..', 'support', 'citus-image.sh');

function mirrors(files: Record<string, string>): { code: number | null; out: string; err: string } {
  const etc = mkdtempSync(join(tmpdir(), 'cm-apt-'));
  mkdirSync(join(etc, 'sources.list.d'));
  for (const [f, text] of Object.entries(files)) writeFileSync(join(etc, f), text);
  const r = spawnSync('bash', [SCRIPT, '--mirrors'], {
    env: { ...process.env, APT_ETC: etc, DEBIAN_MIRROR: '', DEBIAN_SECURITY_MIRROR: '' },
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

describe('citus-image.sh mirrors', () => {
  it('reads deb822 sources without a sources.list', () => {
    expect(
      mirrors({
        'sources.list.d/debian.sources': [
          'Types: deb',
          'URIs: http://mirror.example/debian',
          'Suites: bookworm bookworm-updates',
          '',
          'Types: deb',
          'URIs: http://mirror.example/debian-security',
          'Suites: bookworm-security',
        ].join('\n'),
      }),
    ).toEqual({ code: 0, out: 'http://mirror.example/debian http://mirror.example/debian-security', err: '' });
  });

  it('reads one-line lists', () => {
    expect(
      mirrors({
        'sources.list':
          'deb http://a.example/debian bookworm main\ndeb http://a.example/debian-security bookworm-security main\n',
      }).out,
    ).toBe('http://a.example/debian http://a.example/debian-security');
  });

  it('says why when there is no mirror', () => {
    const r = mirrors({});
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^citus-image: no Debian mirror found in .*: set DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR$/);
  });
});

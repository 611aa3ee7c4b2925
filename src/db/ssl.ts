// libpq's sslmode, in node-postgres's TLS options. pg-connection-string verifies the certificate
// and host name for every mode but disable, so `sslmode=require` failed on a certificate psql
// accepts; libpq's meanings are kept here instead.
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { CmError, EXIT } from '../errors.js';

export interface SslSetting {
  /** What node-postgres is given: false for no TLS. */
  readonly ssl: false | ConnectionOptions;
  /** sslmode=prefer: when the server refuses TLS, connect without it. */
  readonly fallback: boolean;
}

const MODES = ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'];

function read(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new CmError(`cannot read the ${what} ${file}: ${(e as Error).message}`, 'invalid_url', EXIT.usage);
  }
}

/**
 * TLS options for libpq's sslmode: disable and allow connect without TLS; prefer and require
 * encrypt without checking the certificate (require with an sslrootcert checks the chain, as
 * libpq does); verify-ca checks the chain, verify-full the chain and the host name. Without an
 * sslmode there is no TLS. sslrootcert is the CA file (`system`: the system's CAs); sslcert,
 * sslkey and sslpassword give a client certificate.
 */
export function sslSetting(p: Readonly<Record<string, string | undefined>>): SslSetting {
  const mode = p.sslmode;
  if (mode === undefined || mode === 'disable' || mode === 'allow') return { ssl: false, fallback: false };
  if (!MODES.includes(mode))
    throw new CmError(`sslmode ${JSON.stringify(mode)} is not one of ${MODES.join(', ')}`, 'invalid_url', EXIT.usage);
  const ca = p.sslrootcert && p.sslrootcert !== 'system' ? { ca: read(p.sslrootcert, 'sslrootcert file') } : {};
  const client = {
    ...(p.sslcert ? { cert: read(p.sslcert, 'sslcert file') } : {}),
    ...(p.sslkey ? { key: read(p.sslkey, 'sslkey file') } : {}),
    ...(p.sslpassword ? { passphrase: p.sslpassword } : {}),
  };
  const chainOnly = { ...ca, ...client, checkServerIdentity: () => undefined };
  if (mode === 'verify-full') return { ssl: { ...ca, ...client }, fallback: false };
  if (mode === 'verify-ca' || (mode === 'require' && p.sslrootcert)) return { ssl: chainOnly, fallback: false };
  return { ssl: { ...client, rejectUnauthorized: false }, fallback: mode === 'prefer' };
}

// What the library functions take: a database (a URL, or a ConnectionTarget built from libpq's
// environment) and a manifest (a path, or one already loaded).
import { connectionTarget, type ConnectionTarget } from '../db/connect.js';
import { loadManifest, type LoadedManifest } from '../manifest/load.js';

/**
 * A database: a URL (`postgresql://user@host:port/db`, libpq's keywords in the query string), or
 * `connectionTarget(undefined, process.env)` for DATABASE_URL / PGHOST… as the CLI reads them.
 */
export type DatabaseTarget = string | ConnectionTarget;

/** A manifest: the path of its file (not a folder), or one loaded with loadManifest. */
export type ManifestInput = string | LoadedManifest;

/** The ConnectionTarget of a DatabaseTarget (a URL is read without the environment). */
export const toTarget = (t: DatabaseTarget): ConnectionTarget => (typeof t === 'string' ? connectionTarget(t, {}) : t);

/** The loaded manifest of a ManifestInput (a path is relative to the process's folder). */
export const toManifest = async (m: ManifestInput): Promise<LoadedManifest> =>
  typeof m === 'string' ? loadManifest(m) : m;

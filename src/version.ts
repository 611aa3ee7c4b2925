// The tool's name and version, read once from package.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './util/package-root.js';

const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

export const TOOL_NAME: string = pkg.name;
export const TOOL_VERSION: string = pkg.version;

// Name and version of this suite as reports show them, read once from package.json.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The checkout this suite runs from (suites, package.json, git). */
export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const SUITE_NAME = pkg.name;
export const SUITE_VERSION = pkg.version;

// Name and version of this suite as reports show them, read once from package.json.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const SUITE_NAME = pkg.name;
export const SUITE_VERSION = pkg.version;

// Loads schemas/cases/<Name>.cases.json (JSON-Schema-Test-Suite form, plus `specSection` per group and `failsAt` per invalid test).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS_DIR } from '../../schemas/schema-files.ts';

export interface SchemaCase {
  description: string;
  data: unknown;
  valid: boolean;
  /** JSON pointer where an invalid document must fail (so it fails for the intended reason). */
  failsAt?: string;
}

export interface CaseGroup {
  description: string;
  specSection?: string;
  schema: { $ref: string };
  tests: SchemaCase[];
}

export const CASES_DIR = join(SCHEMAS_DIR, 'cases');

export function caseFileNames(): string[] {
  return readdirSync(CASES_DIR).filter((f) => f.endsWith('.cases.json')).sort();
}

export function loadCases(file: string): CaseGroup[] {
  return JSON.parse(readFileSync(join(CASES_DIR, file), 'utf8')) as CaseGroup[];
}

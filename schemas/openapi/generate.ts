// Writes the shipped copy of the document, schemas/openapi/openapi.json. Run: node --import tsx schemas/openapi/generate.ts
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openApiText } from './document.ts';

export const SHIPPED_OPENAPI = join(dirname(fileURLToPath(import.meta.url)), 'openapi.json');

if (process.argv[1] === fileURLToPath(import.meta.url)) writeFileSync(SHIPPED_OPENAPI, openApiText());

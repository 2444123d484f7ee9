// Searches files, bundles and text for secret values, also inside base64 blobs (Allure's single-file HTML and
// its attachments carry their data base64-encoded, where a plain text search would never see a key).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readBundle } from '../../certify/verify-bundle.ts';

export interface Hit {
  where: string;
  secret: string;
}

const BASE64_RUN = /[A-Za-z0-9+/]{24,}={0,2}/g;

export function findSecretsInText(where: string, text: string, secrets: string[], depth = 2): Hit[] {
  const hits = secrets.filter((s) => text.includes(s)).map((secret) => ({ where, secret: mask(secret) }));
  if (depth === 0) return hits;
  for (const run of text.match(BASE64_RUN) ?? []) {
    const decoded = Buffer.from(run, 'base64').toString('latin1');
    for (const hit of findSecretsInText(`${where} (base64)`, decoded, secrets, depth - 1)) if (!hits.some((h) => h.secret === hit.secret)) hits.push(hit);
  }
  return hits;
}

/** Every file under dir; .tar.gz archives are opened and each member searched. */
export function findSecretsInDir(dir: string, secrets: string[]): { hits: Hit[]; files: string[] } {
  const hits: Hit[] = [];
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      files.push(path);
      if (name.endsWith('.tar.gz')) {
        for (const [member, content] of readBundle(path)) {
          files.push(`${path}!${member}`);
          hits.push(...findSecretsInText(`${path}!${member}`, content.toString('latin1'), secrets));
        }
      } else hits.push(...findSecretsInText(path, readFileSync(path).toString('latin1'), secrets));
    }
  };
  walk(dir);
  return { hits, files };
}

/** A hit must not print the secret it found. */
function mask(secret: string): string {
  return `${secret.slice(0, 3)}…(${secret.length} chars)`;
}

// The CLI's bundle (bin/cli-bundle.mjs): built on first start, reused while no bundled file changes, rebuilt when one
// does; each module keeps its own import.meta.url, lazy imports stay lazy; sources that do not build fall back to tsx.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledCli } from '../../bin/cli-bundle.mjs';

const project = mkdtempSync(join(tmpdir(), 'cli-bundle-'));
const write = (file: string, text: string) => writeFileSync(join(project, file), text);
mkdirSync(join(project, 'cli'));
write('cli/main.ts', "import { greeting } from './greeting.ts';\nexport const main = (): string => greeting;\nexport const lazy = async (): Promise<string> => (await import('./lazy.ts')).where;\n");
write('cli/greeting.ts', "export const greeting: string = 'hello';\n");
write('cli/lazy.ts', 'export const where: string = import.meta.url;\n');
afterAll(() => rmSync(project, { recursive: true, force: true }));

interface Bundled {
  main(): string;
  lazy(): Promise<string>;
}
const load = async (url: string) => (await import(url)) as Bundled;

describe('the CLI bundle', () => {
  it('is built on first use, then reused while no bundled file changes', async () => {
    const first = await bundledCli(project);
    const second = await bundledCli(project);
    expect(first).toMatchObject({ built: true });
    expect(second).toEqual({ url: first!.url, built: false });
    expect((await load(first!.url)).main()).toBe('hello');
  });

  it('keeps each module its own import.meta.url, and a lazy import in a chunk of its own', async () => {
    const bundle = await bundledCli(project);
    expect(await (await load(bundle!.url)).lazy()).toBe(pathToFileURL(join(project, 'cli/lazy.ts')).href);
    expect(readdirSync(join(bundle!.url.replace('file://', ''), '..')).length, 'main and the lazy chunk').toBeGreaterThan(1);
  });

  it('is rebuilt when a bundled file changes, and runs the new code', async () => {
    const before = await bundledCli(project);
    write('cli/greeting.ts', "export const greeting: string = 'hi';\n");
    const after = await bundledCli(project);
    expect(after).toMatchObject({ built: true });
    expect(after!.url).not.toBe(before!.url);
    expect((await load(after!.url)).main()).toBe('hi');
  });

  it('is rebuilt when tsconfig.json changes (esbuild reads it)', async () => {
    await bundledCli(project);
    write('tsconfig.json', '{ "compilerOptions": { "useDefineForClassFields": true } }\n');
    expect(await bundledCli(project)).toMatchObject({ built: true });
  });

  it('is not built from sources that do not compile: the caller runs them through tsx, which names the error', async () => {
    write('cli/greeting.ts', "export const greeting: string = 'unterminated;\n");
    expect(await bundledCli(project)).toBeUndefined();
  });
});

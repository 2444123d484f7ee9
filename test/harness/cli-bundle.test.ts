// The CLI's bundle (bin/cli-bundle.mjs): built on first start, reused while no bundled file changes, rebuilt when one
// does; each module keeps its own import.meta.url, lazy imports stay lazy; sources that do not build are refused with
// the reason (bin/conformance.js then runs them through tsx, as the container image does: it cannot write the cache).
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledCli } from '../../bin/cli-bundle.mjs';

const temporary = mkdtempSync(join(tmpdir(), 'cli-bundle-'));
// nested deeper than the working directory: a path taken relative to the wrong one cannot land on the right file by chance
const project = join(temporary, ...process.cwd().split(sep).filter(Boolean).map(() => 'nested'));
const write = (file: string, text: string) => writeFileSync(join(project, file), text);
mkdirSync(join(project, 'cli'), { recursive: true });
write('cli/main.ts', "import { greeting } from './greeting.ts';\nexport const main = (): string => greeting;\nexport const lazy = async (): Promise<string> => (await import('./lazy.ts')).where;\n");
write('cli/greeting.ts', "export const greeting: string = 'hello';\n");
write('cli/lazy.ts', 'export const where: string = import.meta.url;\n');
afterAll(() => rmSync(temporary, { recursive: true, force: true }));

interface Bundled {
  main(): string;
  lazy(): Promise<string>;
}
const load = async (url: string) => (await import(url)) as Bundled;

/** An edit of a built bundle, as a patch of the cache would make: main() answers 'patched'. */
const patch = (mainFile: string) => writeFileSync(mainFile, readFileSync(mainFile, 'utf8').replace(/var main = \(\) => [^;]*;/, "var main = () => 'patched';"));

/** The digest bin/cli-bundle.mjs records, computed as someone who edits the cache would: every file, name order, the checkout's URL as `<root>`. */
function digestOf(dir: string, root = project): string {
  const own = pathToFileURL(join(root, '/')).href;
  const hash = createHash('sha256');
  for (const name of readdirSync(dir).filter((n) => n !== 'bundle.sha256').sort()) {
    const content = Buffer.from(readFileSync(join(dir, name), 'utf8').replaceAll(own, 'file:///<root>/'));
    hash.update(`\0${name}\0${content.length}\0`).update(content);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** The bundle's URL; a test that needs one fails with the reason it could not be built. */
async function built(expectBuilt?: boolean, verify = false): Promise<{ url: string; built: boolean; sha256: string; checked: string; replaced?: string }> {
  const bundle = await bundledCli(project, { verify });
  if (!('url' in bundle)) throw new Error(`the bundle was not built: ${bundle.error}`);
  if (expectBuilt !== undefined) expect(bundle.built, expectBuilt ? 'built now' : 'reused').toBe(expectBuilt);
  return bundle;
}

describe('the CLI bundle', () => {
  it('is built on first use, then reused while no bundled file changes', async () => {
    const first = await built(true);
    const second = await built(false);
    expect(second.url).toBe(first.url);
    expect((await load(first.url)).main()).toBe('hello');
  });

  it('keys the build on the bundled files, named from the project root wherever the command started', () => {
    const [cache] = readdirSync(join(project, 'node_modules/.cache/conformance-cli'));
    const inputs = JSON.parse(readFileSync(join(project, 'node_modules/.cache/conformance-cli', cache!, 'inputs.json'), 'utf8')) as string[];
    expect(inputs).toEqual(['cli/greeting.ts', 'cli/lazy.ts', 'cli/main.ts']);
  });

  it('keeps each module its own import.meta.url, and a lazy import in a chunk of its own', async () => {
    const bundle = await built(false);
    expect(await (await load(bundle.url)).lazy()).toBe(pathToFileURL(join(project, 'cli/lazy.ts')).href);
    expect(readdirSync(dirname(fileURLToPath(bundle.url))).length, 'main and the lazy chunk').toBeGreaterThan(1);
  });

  it('is rebuilt when a bundled file changes, and runs the new code', async () => {
    const before = await built(false);
    write('cli/greeting.ts', "export const greeting: string = 'hi';\n");
    const after = await built(true);
    expect(after.url).not.toBe(before.url);
    expect((await load(after.url)).main()).toBe('hi');
  });

  it('is rebuilt when tsconfig.json changes (esbuild reads it)', async () => {
    await built(false);
    write('tsconfig.json', '{ "compilerOptions": { "useDefineForClassFields": true } }\n');
    await built(true);
  });

  it('records the digest of its own bytes when it is built, and runs a cached bundle only while its bytes are those', async () => {
    const first = await built(false);
    const dir = dirname(fileURLToPath(first.url));
    expect(first).toMatchObject({ checked: 'recorded', sha256: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) });
    expect(readFileSync(join(dir, 'bundle.sha256'), 'utf8')).toBe(first.sha256);
    expect(first.sha256).toBe(digestOf(dir));
  });

  it('never runs a cached bundle whose bytes were edited: it is rebuilt from the sources, and says why', async () => {
    const before = await built(false);
    patch(fileURLToPath(before.url));
    const after = await built(true);
    expect(after.url).toBe(before.url);
    expect(after.replaced).toMatch(/^the cached CLI bundle .* is not what the sources build \(its files hash to sha256:[0-9a-f]{64}, a fresh build to sha256:/);
    expect(after.sha256).toBe(before.sha256);
    expect((await load(`${after.url}?after-edit`)).main()).toBe('hi');
  });

  it('an edit that also rewrote the recorded digest runs on an ordinary start, never on a certifying one (verify: built afresh)', async () => {
    const clean = await built(false);
    const dir = dirname(fileURLToPath(clean.url));
    patch(fileURLToPath(clean.url));
    writeFileSync(join(dir, 'bundle.sha256'), digestOf(dir));
    const ordinary = await built(false);
    expect(ordinary.checked, 'the limit of a digest kept beside the bundle: docs/releasing.md says so').toBe('recorded');
    expect((await load(`${ordinary.url}?forged`)).main()).toBe('patched');
    const certifying = await built(true, true);
    expect(certifying).toMatchObject({ checked: 'built', sha256: clean.sha256, replaced: expect.stringMatching(/is not what the sources build/) });
    expect((await load(`${certifying.url}?certifying`)).main()).toBe('hi');
    // as the sources build it now: a certifying start reuses it, checked against its fresh build
    expect(await built(false, true)).toMatchObject({ url: clean.url, checked: 'built', sha256: clean.sha256 });
  });

  it('is not built from sources that do not compile: the caller runs them through tsx, which names the error', async () => {
    write('cli/greeting.ts', "export const greeting: string = 'unterminated;\n");
    expect(await bundledCli(project)).toEqual({ error: expect.stringContaining('Unterminated string literal') as string });
  });
});

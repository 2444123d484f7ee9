// The CLI's TypeScript, bundled by esbuild (the compiler tsx runs on) into node_modules/.cache and rebuilt whenever a
// file it bundles changes. Why: under tsx's loader hooks every module a command loads goes through the hooks' thread,
// 0.5 s of CPU per start; `npm test` starts the CLI 48 times. Nothing to run by hand: the first start builds it.
// Plain JavaScript, since it runs before anything can load TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The URL of the bundled `cli/main.ts` of `root`, built first if any file it bundles changed since the last build;
 * or why it cannot be built (the caller then runs the sources through tsx, which reports a compile error its own way).
 */
export async function bundledCli(root = PROJECT) {
  // One cache per checkout: Stryker's sandboxes share the project's node_modules.
  const cache = join(root, 'node_modules/.cache/conformance-cli', createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12));
  const inputs = readJson(join(cache, 'inputs.json'));
  const key = Array.isArray(inputs) ? keyOf(root, inputs) : undefined;
  if (key && existsSync(join(cache, key, 'main.mjs'))) return { url: pathToFileURL(join(cache, key, 'main.mjs')).href, built: false };
  try {
    return { url: pathToFileURL(await build(root, cache)).href, built: true };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Files that shape the bundle without being in it: the build options here, esbuild's tsconfig and module type. */
const SHAPING = ['bin/cli-bundle.mjs', 'tsconfig.json', 'package.json'];

/** What the bundle depends on: esbuild's version and the content of every file it bundles (mtimes change on every checkout). */
function keyOf(root, inputs) {
  const hash = createHash('sha256').update(esbuildVersionOf());
  for (const file of SHAPING) hash.update(`\0${file}\0`).update(readOptional(join(root, file)));
  for (const file of inputs) {
    hash.update(`\0${file}\0`);
    try {
      hash.update(readFileSync(join(root, file)));
    } catch {
      return undefined; // a bundled file is gone: rebuild
    }
  }
  return hash.digest('hex').slice(0, 16);
}

async function build(root, cache) {
  const { build: esbuild } = await import('esbuild');
  const staging = join(cache, `building-${process.pid}-${Date.now()}`);
  mkdirSync(staging, { recursive: true });
  try {
    const result = await esbuild({
      entryPoints: { main: join(root, 'cli/main.ts') },
      // the metafile's paths are relative to this, wherever the command was started
      absWorkingDir: resolve(root),
      outdir: staging,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      // the commands' lazy imports stay lazy: `--version` loads 0.2 MB, not 2 MB
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      metafile: true,
      logLevel: 'silent',
      plugins: [ownUrls],
    });
    const inputs = Object.keys(result.metafile.inputs).map((file) => relative(root, resolve(root, file)).split('\\').join('/')).sort();
    const key = keyOf(root, inputs);
    if (!key) throw new Error(`a bundled file cannot be read back: ${inputs.join(', ')}`);
    const final = join(cache, key);
    try {
      renameSync(staging, final);
    } catch (error) {
      if (!existsSync(final)) throw error; // else another start built the same sources meanwhile: either copy serves
    }
    writeFileSync(join(cache, `inputs.json.${process.pid}`), JSON.stringify(inputs));
    renameSync(join(cache, `inputs.json.${process.pid}`), join(cache, 'inputs.json'));
    pruneBuildsBefore(cache, Date.now() - PRUNE_AFTER_MS, key);
    return join(final, 'main.mjs');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

// Each module keeps its own import.meta.url (files next to it, the repository root): the bundle lives elsewhere.
const ownUrls = {
  name: 'own-import-meta-url',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: /\.[cm]?ts$/.test(args.path) ? 'ts' : 'js',
    }));
  },
};

/** Builds are kept a day: a command still running loads its lazy chunks from the build it started with. */
const PRUNE_AFTER_MS = 24 * 3600_000;

function pruneBuildsBefore(cache, time, keep) {
  for (const entry of readdirSync(cache, { withFileTypes: true })) {
    const dir = join(cache, entry.name);
    if (entry.isDirectory() && entry.name !== keep && statSync(dir).mtimeMs < time) rmSync(dir, { recursive: true, force: true });
  }
}

function readOptional(file) {
  try {
    return readFileSync(file);
  } catch {
    return 'absent';
  }
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

let esbuildVersion;
function esbuildVersionOf() {
  esbuildVersion ??= readJson(join(PROJECT, 'node_modules/esbuild/package.json'))?.version ?? 'unknown';
  return esbuildVersion;
}

// The CLI's TypeScript, bundled by esbuild (the compiler tsx runs on) into node_modules/.cache and rebuilt whenever a
// file it bundles changes. Why: under tsx's loader hooks every module a command loads goes through the hooks' thread,
// 0.5 s of CPU per start; `npm test` starts the CLI 48 times. Nothing to run by hand: the first start builds it.
// The bundle's own bytes are hashed when it is built (bundle.sha256 beside it) and on every start: a cached bundle
// whose bytes differ is never run, it is rebuilt. A certifying start (verify) builds afresh and runs only what the
// sources build now, so an edit that also rewrote the recorded digest is caught there.
// Plain JavaScript, since it runs before anything can load TypeScript.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PROJECT = fileURLToPath(new URL('../', import.meta.url));

/** The digest recorded beside a build: the SHA-256 of its files (bundleDigest), written when it was built. */
const DIGEST_FILE = 'bundle.sha256';

/**
 * The URL of the bundled `cli/main.ts` of `root`, built first if any file it bundles changed since the last build or
 * its bytes are not those recorded when it was built; with `verify`, built afresh and run only as the sources build
 * now. `sha256`: the digest of the bundle that runs; `checked`: `built` (built by this start, or byte for byte what
 * a build by this start gave) or `recorded` (its bytes are those recorded at its build); `replaced`: why a cached
 * bundle was not run. Or why it cannot be built (the caller then runs the sources through tsx, which reports a
 * compile error its own way).
 */
export async function bundledCli(root = PROJECT, { verify = false } = {}) {
  // One cache per checkout: Stryker's sandboxes share the project's node_modules.
  const cache = join(root, 'node_modules/.cache/conformance-cli', createHash('sha256').update(resolve(root)).digest('hex').slice(0, 12));
  const inputs = readJson(join(cache, 'inputs.json'));
  const key = Array.isArray(inputs) ? keyOf(root, inputs) : undefined;
  let replaced;
  if (key && existsSync(join(cache, key, 'main.mjs'))) {
    const dir = join(cache, key);
    const sha256 = digestOrUndefined(dir, root);
    if (sha256 === undefined || sha256 !== readOptional(join(dir, DIGEST_FILE)).toString().trim()) replaced = `the cached CLI bundle ${dir} is not the one built there (its files hash to ${sha256}, not to the digest recorded at its build)`;
    else if (!verify) return { url: pathToFileURL(join(dir, 'main.mjs')).href, built: false, sha256, checked: 'recorded' };
  }
  try {
    const fresh = await build(root, cache);
    return { url: pathToFileURL(fresh.main).href, built: !fresh.reused, sha256: fresh.sha256, checked: 'built', ...(fresh.replaced ? { replaced: fresh.replaced } : {}) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error), ...(replaced ? { replaced } : {}) };
  }
}

/**
 * One digest over a build's files: each name (relative, `/`-separated) and content, in name order, the checkout's own
 * file URL (ownUrls writes it into the code) read as `file:///<root>/`: the same files build the same digest in any
 * checkout, so `conformance bundle` can compare the run's with its own.
 */
function bundleDigest(files, root) {
  const own = pathToFileURL(join(resolve(root), '/')).href;
  const hash = createHash('sha256');
  for (const [name, content] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const text = Buffer.from(content.toString('utf8').replaceAll(own, 'file:///<root>/'));
    hash.update(`\0${name}\0${text.length}\0`).update(text);
  }
  return `sha256:${hash.digest('hex')}`;
}

/** A build's digest, or undefined when it cannot be read whole (being replaced by another start): it is then rebuilt. */
function digestOrUndefined(dir, root) {
  try {
    return bundleDigest(filesOf(dir), root);
  } catch {
    return undefined;
  }
}

/** The files of a build directory, name → bytes (the recorded digest aside). */
function filesOf(dir, under = '') {
  const files = new Map();
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true })) {
    const name = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) for (const [n, c] of filesOf(dir, name)) files.set(n, c);
    else if (name !== DIGEST_FILE) files.set(name, readFileSync(join(dir, name)));
  }
  return files;
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

/**
 * Builds the bundle in memory and keeps it under its key: the cached copy when it is byte for byte the same (`reused`),
 * else these files, replacing a copy whose bytes differ (`replaced` says so).
 */
async function build(root, cache) {
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: { main: join(root, 'cli/main.ts') },
    // the metafile's paths are relative to this, wherever the command was started
    absWorkingDir: resolve(root),
    outdir: OUTDIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // the commands' lazy imports stay lazy: `--version` loads 0.2 MB, not 2 MB
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    metafile: true,
    // why: the code can tell it runs from a bundle (report/suite-info.ts runningCode): started unchecked, it says so
    define: { __CONFORMANCE_BUNDLED__: 'true' },
    // why: in memory first, so a certifying start compares before it writes (and the image's read-only cache serves)
    write: false,
    logLevel: 'silent',
    plugins: [ownUrls],
  });
  const inputs = Object.keys(result.metafile.inputs).map((file) => relative(root, resolve(root, file)).split('\\').join('/')).sort();
  const key = keyOf(root, inputs);
  if (!key) throw new Error(`a bundled file cannot be read back: ${inputs.join(', ')}`);
  const files = new Map(result.outputFiles.map((f) => [relative(OUTDIR, f.path).split('\\').join('/'), Buffer.from(f.contents)]));
  const sha256 = bundleDigest(files, root);
  const final = join(cache, key);
  const cached = existsSync(join(final, 'main.mjs')) ? bundleDigest(filesOf(final), root) : undefined;
  if (cached === sha256) {
    // another start built the same sources meanwhile, or a certifying start found the cache as the sources build it
    if (readOptional(join(final, DIGEST_FILE)).toString().trim() !== sha256) tryWrite(join(final, DIGEST_FILE), sha256);
    return { main: join(final, 'main.mjs'), sha256, reused: true };
  }
  const staging = join(cache, `building-${process.pid}-${Date.now()}`);
  try {
    for (const [name, content] of files) {
      mkdirSync(dirname(join(staging, name)), { recursive: true });
      writeFileSync(join(staging, name), content);
    }
    writeFileSync(join(staging, DIGEST_FILE), sha256);
    // why: a copy under this key whose bytes differ is not what the sources build: it goes, whoever edited it
    // (only that copy: one that appeared since is another start's build of the same sources, perhaps being loaded)
    if (cached !== undefined) rmSync(final, { recursive: true, force: true });
    try {
      renameSync(staging, final);
    } catch (error) {
      if (!existsSync(final) || bundleDigest(filesOf(final), root) !== sha256) throw error; // else another start wrote the same bytes meanwhile
    }
    writeFileSync(join(cache, `inputs.json.${process.pid}`), JSON.stringify(inputs));
    renameSync(join(cache, `inputs.json.${process.pid}`), join(cache, 'inputs.json'));
    pruneBuildsBefore(cache, Date.now() - PRUNE_AFTER_MS, key);
    return { main: join(final, 'main.mjs'), sha256, reused: false, ...(cached !== undefined ? { replaced: `the cached CLI bundle ${final} is not what the sources build (its files hash to ${cached}, a fresh build to ${sha256})` } : {}) };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Where esbuild names the files it builds in memory: only their paths relative to it are kept. */
const OUTDIR = resolve('/conformance-cli-bundle');

function tryWrite(file, content) {
  try {
    writeFileSync(file, content);
  } catch {
    // a read-only cache (the image's): the bytes were checked against a fresh build all the same
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

// `npm run reference:image`: builds notification-api-reference:local where the engine cannot pull a base image.
// It stages a root from this machine's Node binary, the shared libraries it and the native addons load, the project and its
// production dependencies, imports it as one layer with the runtime instructions of the Dockerfile's final stage, then
// builds the CLI's bundle inside it as the Dockerfile does.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { create as tar, type WriteEntry } from 'tar';

export const LOCAL_IMAGE = 'notification-api-reference:local';
const PROJECT = fileURLToPath(new URL('../..', import.meta.url));
/** Where the official Node images keep node, so the Dockerfile's ENTRYPOINT finds it the same way. */
const NODE_IN_IMAGE = '/usr/local/bin/node';
/** The official Node images' unprivileged user, named by the Dockerfile's USER. */
const USERS = { passwd: 'root:x:0:0:root:/root:/sbin/nologin\nnode:x:1000:1000:node:/home/node:/sbin/nologin\n', group: 'root:x:0:\nnode:x:1000:\n' };
/** What the official base image provides and a root staged from scratch lacks. */
const BASE_INSTRUCTIONS = ['ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'];
const RUNTIME_INSTRUCTIONS = new Set(['WORKDIR', 'USER', 'EXPOSE', 'ENV', 'ENTRYPOINT', 'CMD']);

/** The final stage's runtime instructions, so both images start the same way. */
export function runtimeInstructions(dockerfile: string): string[] {
  const lines = dockerfile.split('\n').map((l) => l.trim());
  const finalStage = lines.slice(lines.findLastIndex((l) => /^FROM\s/i.test(l)) + 1);
  return finalStage.filter((l) => RUNTIME_INSTRUCTIONS.has(l.split(/\s/)[0]!.toUpperCase()));
}

/** The shared libraries a dynamically linked binary loads, the loader included (from ldd). */
export function linkedLibraries(lddOutput: string): string[] {
  return [...lddOutput.matchAll(/(\/\S+) \(0x[0-9a-f]+\)/g)].map((m) => m[1]!);
}

function stageNode(root: string): void {
  mkdirSync(join(root, dirname(NODE_IN_IMAGE)), { recursive: true });
  copyFileSync(process.execPath, join(root, NODE_IN_IMAGE));
  mkdirSync(join(root, 'etc'));
  writeFileSync(join(root, 'etc/passwd'), USERS.passwd);
  writeFileSync(join(root, 'etc/group'), USERS.group);
  mkdirSync(join(root, 'home/node'), { recursive: true });
  mkdirSync(join(root, 'tmp'));
  chmodSync(join(root, 'tmp'), 0o1777); // tsx caches compiled files in the temporary directory
}

/** The shared libraries node and the native addons (`*.node`) of the staged modules load, at their own paths. */
function stageLibraries(root: string, modules: string): number {
  const addons = readdirSync(modules, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.node')).map((f) => join(modules, f));
  const libraries = new Set<string>();
  for (const binary of [process.execPath, ...addons]) {
    const ldd = spawnSync('ldd', [binary], { encoding: 'utf8' }); // an addon for another platform is not ours to load
    if (ldd.status === 0) for (const lib of linkedLibraries(ldd.stdout)) libraries.add(lib);
  }
  for (const lib of libraries) {
    mkdirSync(join(root, dirname(lib)), { recursive: true });
    copyFileSync(realpathSync(lib), join(root, lib));
  }
  return libraries.size;
}

/** The project as `COPY . .` sees it: every top-level entry the .dockerignore does not name. */
function stageProject(app: string): void {
  const ignored = new Set(readFileSync(join(PROJECT, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')));
  cpSync(PROJECT, app, { recursive: true, verbatimSymlinks: true, filter: (source) => !ignored.has(source.slice(PROJECT.length).split('/')[0]!) });
}

/** What `npm ci --omit=dev` installs: every package of the lock file not marked dev (absent optional ones skipped). */
function stageProductionModules(app: string): number {
  const lock = JSON.parse(readFileSync(join(PROJECT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
  const topLevel = Object.entries(lock.packages).filter(([path, entry]) => path.startsWith('node_modules/') && !path.slice('node_modules/'.length).includes('node_modules/') && !entry.dev);
  let copied = 0;
  for (const [path] of topLevel) {
    const source = join(PROJECT, path);
    if (!existsSync(source)) continue;
    cpSync(source, join(app, path), { recursive: true, verbatimSymlinks: true }); // nested node_modules come along
    copied++;
  }
  return copied;
}

/** Files belong to root, as after the Dockerfile's COPY, whoever staged them. */
function ownedByRoot(entry: WriteEntry): void {
  if (entry.stat) Object.assign(entry.stat, { uid: 0, gid: 0 });
}

/** One `docker import` of the staged root: a single layer, where a build would copy the root once per instruction. */
function importRoot(root: string, instructions: string[]): Promise<number> {
  const importer = spawn('docker', ['import', ...instructions.flatMap((i) => ['--change', i]), '-', LOCAL_IMAGE], { stdio: ['pipe', 'inherit', 'inherit'] });
  tar({ cwd: root, onWriteEntry: ownedByRoot }, ['.']).pipe(importer.stdin);
  return new Promise((resolve) => importer.on('close', (code) => resolve(code ?? 1)));
}

/**
 * The CLI's bundle, built inside the image as the Dockerfile's `RUN node bin/conformance.js --version` builds it (its
 * paths must be the image's): one start as root, committed with the final stage's instructions again.
 */
function buildBundleInImage(instructions: string[]): boolean {
  const builder = `reference-image-bundle-${process.pid}`;
  try {
    const run = spawnSync('docker', ['run', '--name', builder, '--user', 'root', LOCAL_IMAGE, '--version'], { stdio: 'inherit' });
    if (run.status !== 0) return false;
    return spawnSync('docker', ['commit', ...instructions.flatMap((i) => ['--change', i]), builder, LOCAL_IMAGE], { stdio: 'inherit' }).status === 0;
  } finally {
    spawnSync('docker', ['rm', '-f', builder], { stdio: 'ignore' });
  }
}

/** The engine's version, or undefined when no Docker engine answers. */
export function engineVersion(): string | undefined {
  const result = spawnSync('docker', ['version', '--format', '{{.Server.Version}}'], { encoding: 'utf8', timeout: 15_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

async function main(): Promise<number> {
  if (process.platform !== 'linux') {
    console.error(`reference:image copies this machine's Node binary into a Linux image; on ${process.platform} use \`docker build -t notification-api-reference .\``);
    return 2;
  }
  const engine = engineVersion();
  if (!engine) {
    console.error('reference:image: no Docker engine answers `docker version` (is dockerd running, is DOCKER_HOST right?)');
    return 2;
  }
  const root = mkdtempSync(join(tmpdir(), 'reference-image-'));
  chmodSync(root, 0o755); // it becomes the image's /, which the unprivileged user must traverse
  try {
    stageNode(root);
    stageProject(join(root, 'app'));
    const packages = stageProductionModules(join(root, 'app'));
    const libraries = stageLibraries(root, join(root, 'app/node_modules'));
    const instructions = [...BASE_INSTRUCTIONS, ...runtimeInstructions(readFileSync(join(PROJECT, 'Dockerfile'), 'utf8'))];
    console.log(`Staged Node ${process.version} (${process.execPath}), ${libraries} shared libraries, the project and ${packages} production packages; importing ${LOCAL_IMAGE} into engine ${engine} with ${instructions.join(' · ')}`);
    if ((await importRoot(root, instructions)) !== 0) return 1;
    if (!buildBundleInImage(instructions)) return 1;
    console.log(`Built ${LOCAL_IMAGE}: docker run --rm -p 3000:3000 -e REFERENCE_API_KEY=… -e REFERENCE_SECONDARY_API_KEY=… -e REFERENCE_RESTRICTED_API_KEY=… ${LOCAL_IMAGE}`);
    return 0;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) process.exitCode = await main();

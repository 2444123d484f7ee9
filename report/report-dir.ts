// The report folder is made and proven writable before anything is sent: a run whose results cannot be kept never starts.
import { mkdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * Creates DIR (and its missing parents) and writes a probe file into it. Returns why it cannot hold the reports, in a
 * sentence naming `setting`, or undefined when it can. Each missing folder is made on its own: Node's recursive mkdir
 * spins forever on a path under /proc, where a plain mkdir answers ENOENT at once.
 */
export function probeReportDir(dir: string, setting = '--report-dir'): string | undefined {
  const absolute = resolve(dir);
  try {
    makeFolders(absolute);
    const probe = join(absolute, `.conformance-write-probe-${process.pid}`);
    writeFileSync(probe, 'probe\n');
    unlinkSync(probe);
    return undefined;
  } catch (error) {
    return `${setting ? `${setting} ` : ''}${dir}: the reports cannot be written there (${why(error as NodeJS.ErrnoException, absolute)}); choose a folder you can write to`;
  }
}

function makeFolders(absolute: string): void {
  const missing: string[] = [];
  for (let at = absolute; !exists(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const folder of missing) mkdirSync(folder);
  if (!statSync(absolute).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR', path: absolute });
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    // a path under a regular file exists as far as the walk goes: its mkdir names the file
    return (error as NodeJS.ErrnoException).code === 'ENOTDIR';
  }
}

function why(error: NodeJS.ErrnoException, absolute: string): string {
  const at = error.path && error.path !== absolute ? ` at ${error.path}` : '';
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied${at}`;
    case 'EROFS':
      return `read-only file system${at}`;
    case 'ENOTDIR':
      return `a file, not a folder, stands in the path${at}`;
    case 'ENOENT':
      return `this file system does not allow creating it${at}`;
    case 'ENOSPC':
      return 'no space left on the device';
    default:
      return error.code ?? error.message;
  }
}

// `suite.dirty` says whether the suite's own files differ from its commit: a report dir or a note in the checkout does not.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteSourceAt } from '../../report/suite-info.ts';

const root = mkdtempSync(join(tmpdir(), 'suite-dirty-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd: root, stdio: 'ignore' });
const write = (path: string, text: string) => {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
};

describe('suite.dirty', () => {
  it('ignores a --report-dir and other files outside the shipped ones, and sees a changed or added shipped file', () => {
    write('package.json', '{}\n');
    write('schemas/a.schema.json', '{}\n');
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'suite');
    write('my-reports/conformance.json', '{}\n');
    write('notes.txt', 'x\n');
    expect(suiteSourceAt(root).dirty).toBe(false);
    write('schemas/b.schema.json', '{}\n');
    expect(suiteSourceAt(root).dirty, 'a file added under a shipped folder').toBe(true);
    rmSync(join(root, 'schemas/b.schema.json'));
    write('package.json', '{"x":1}\n');
    expect(suiteSourceAt(root).dirty, 'a changed shipped file').toBe(true);
  });
});

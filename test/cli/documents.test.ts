// The documents a user gets — in a clone or in the packed package — stand on their own.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ENV_VARS } from '../../config/env-vars.ts';
import { REPO_ROOT } from '../../report/suite-info.ts';

const markdown = (dir: string): string[] =>
  readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return ['node_modules', 'reports', '.git'].includes(e.name) ? [] : markdown(join(dir, e.name));
    return e.name.endsWith('.md') ? [join(dir, e.name)] : [];
  });

describe('the project\'s documents', () => {
  test('name no path outside the project (a clone or the package has only what is inside)', () => {
    const outside = /\.\.\/shared\/|\/work\//;
    expect(markdown('.').filter((file) => outside.test(readFileSync(join(REPO_ROOT, file), 'utf8')))).toEqual([]);
  });

  test('link only to files that exist', () => {
    const broken = markdown('.').flatMap((file) =>
      [...readFileSync(join(REPO_ROOT, file), 'utf8').matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
        .map((m) => m[1]!)
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => {
          try {
            readdirSync(join(REPO_ROOT, file, '..', target));
            return false;
          } catch (error) {
            return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
          }
        })
        .map((target) => `${file} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  test('the packed package holds the rules, the docs and the CI recipes', () => {
    const [pack] = JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as [{ files: { path: string }[] }];
    const files = pack.files.map((f) => f.path);
    for (const path of ['README.md', 'docs/RULES.md', 'docs/releasing.md', 'docs/images/conformance-html.png', 'schemas/openapi/openapi.json', 'examples/ci/staging.expectations.yaml', 'examples/ci/gitlab-ci.yml']) expect(files).toContain(path);
  });

  test('running.md\'s "Against your implementation" sets every address and key of a target', () => {
    const section = readFileSync(join(REPO_ROOT, 'docs/running.md'), 'utf8').split('## Against your implementation')[1]!.split('\n## ')[0]!;
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const needed = Object.entries(ENV_VARS).filter(([, path]) => /^target\.(baseUrl|regionalBaseUrl|\w*apiKey)$/i.test(path)).map(([name]) => name);
    expect(needed).toContain('CONFORMANCE_REGIONAL_TARGET');
    expect(needed.filter((name) => !block.includes(`export ${name}=`))).toEqual([]);
  });
});

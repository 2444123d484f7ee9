// The harness's liveness check: a child is killed for printing nothing for too long, never for running long.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { killWhenSilent } from './run-cli.ts';

function ends(script: string, silenceMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  killWhenSilent(child, silenceMs);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
}

describe('the silence bound', () => {
  it('kills a child that prints nothing for that long', async () => {
    expect(await ends('setTimeout(() => {}, 60_000)', 300)).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('lets a child that keeps printing run far past it, on stdout or stderr', async () => {
    // 5 s on stdout, then 5 s on stderr, a line every 100 ms, against a 3-s bound: either stream alone keeps it alive
    const script = 'let n = 0; const t = setInterval(() => { (n < 50 ? process.stdout : process.stderr).write(".\\n"); if (++n === 100) clearInterval(t); }, 100)';
    expect(await ends(script, 3_000)).toEqual({ code: 0, signal: null });
  });
});

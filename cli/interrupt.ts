// Ctrl-C as k6 handles it: the first SIGINT/SIGTERM asks the command to stop (it finishes what is running within a
// bound, removes what it created and writes every report); a second one exits at once, saying what may be left.
import { Interruption } from '../harness/runner/interruption.ts';

/** 128 + SIGINT: what shells and CI systems read as "interrupted". */
export const EXIT_INTERRUPTED = 130;

export async function withInterruption<T>(print: (line: string) => void, onFirst: string, work: (interruption: Interruption) => Promise<T>): Promise<T> {
  const interruption = new Interruption();
  const onSignal = (name: NodeJS.Signals) => {
    if (!interruption.requested) {
      print(`\nInterrupted (${name}): ${onFirst} Press Ctrl-C again to exit at once.`);
      interruption.request(name);
      return;
    }
    print(`\nInterrupted again (${name}): exiting at once, without cleaning up.`);
    const left = [...interruption.exitAtOnce(), ...interruption.leftovers()];
    for (const line of left.length > 0 ? left : ['nothing this command knows of']) print(`MAY BE LEFT: ${line}`);
    process.exit(EXIT_INTERRUPTED);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(interruption);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

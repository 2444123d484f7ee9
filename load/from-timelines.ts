// `conformance load --from-timelines A B …`: judges recorded timelines, merging the instances of a split k6 run
// (--execution-segment, the k6-operator's parallelism) into one timeline per scenario first.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { reportLoad } from './load-report.ts';
import { TIMELINE_FORMAT, TIMELINE_FORMAT_VERSION, type Timeline } from './timeline/format.ts';
import { MergeError, mergeTimelines } from './timeline/merge.ts';
import { judgeTimelines } from './verdict/judge.ts';

export async function judgeRecordedTimelines(files: string[], reportDir: string, io: { log(s: string): void }): Promise<number> {
  const usage = (msg: string) => {
    io.log(`conformance load --from-timelines: ${msg}`);
    return 2;
  };
  const recorded: Timeline[] = [];
  for (const file of files) {
    const read = readTimeline(file);
    if (typeof read === 'string') return usage(read);
    recorded.push(read);
  }
  const rates = new Set(recorded.map((t) => t.plan.limitRps));
  if (rates.size > 1) return usage(`the timelines were planned against different trigger limits (${[...rates].join(', ')}/s): judge them separately`);
  let timelines: Timeline[];
  try {
    timelines = mergeTimelines(recorded);
  } catch (error) {
    if (error instanceof MergeError) return usage(error.message);
    throw error;
  }
  for (const tl of timelines) io.log(`  ${tl.scenario} (${tl.engine}${tl.mergedSegments ? `, merged from segments ${tl.mergedSegments.join(', ')}` : ''}): ${Object.entries(tl.routes).map(([r, s]) => `${r} ${JSON.stringify(s.statuses)}`).join('; ')}`);
  const expectedRps = recorded[0]!.plan.limitRps;
  // why: timelines that name one target can join that target's report; others name none and join none
  const targets = new Set(recorded.map((t) => t.target));
  const target = targets.size === 1 && recorded[0]!.target ? { baseUrl: recorded[0]!.target, embeddedReference: false } : {};
  mkdirSync(reportDir, { recursive: true });
  rmSync(join(reportDir, 'load.json'), { force: true });
  const versions = new Set(recorded.map((t) => t.engineVersion));
  const engineVersion = versions.size === 1 ? recorded[0]!.engineVersion : undefined;
  return reportLoad(reportDir, {
    engine: recorded[0]!.engine,
    ...(typeof engineVersion === 'string' ? { engineVersion } : {}),
    target: { ...target, fromTimelines: files },
    expectedRps,
    startedAt: recorded.map((t) => t.startedAt).sort()[0]!,
    verdicts: judgeTimelines(timelines, expectedRps),
    leaks: [],
    timelines,
  }, io);
}

function readTimeline(file: string): Timeline | string {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code ? `cannot read ${file} (${e.code})` : `${file} is not JSON (${e.message})`;
  }
  const t = doc as Partial<Timeline> | null;
  if (!t || t.format !== TIMELINE_FORMAT) return `${file} is not a load timeline (format "${String(t?.format)}", expected "${TIMELINE_FORMAT}")`;
  if (t.formatVersion !== TIMELINE_FORMAT_VERSION) return `${file} has timeline format version ${String(t.formatVersion)}; this tool reads ${TIMELINE_FORMAT_VERSION}`;
  if (!t.plan || !Array.isArray(t.buckets) || typeof t.routes !== 'object' || !(t.bucketMs! > 0)) return `${file} lacks the plan, routes or buckets of a timeline`;
  return t as Timeline;
}

// HDR histograms in microseconds (3 significant digits): fixed memory whatever the request count.
import * as hdr from 'hdr-histogram-js';
import type { Quantiles } from '../timeline/format.ts';

export type Histogram = hdr.Histogram;

export function newHistogram(): Histogram {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false });
}

export function recordMs(h: Histogram, ms: number): void {
  h.recordValue(Math.max(1, Math.round(ms * 1000)));
}

export function quantiles(h: Histogram): Quantiles | null {
  if (h.totalCount === 0) return null;
  const ms = (us: number) => Math.round(us) / 1000;
  return {
    count: h.totalCount,
    mean: ms(h.mean),
    p50: ms(h.getValueAtPercentile(50)),
    p90: ms(h.getValueAtPercentile(90)),
    p99: ms(h.getValueAtPercentile(99)),
    max: ms(h.maxValue),
  };
}

// ERR-11 on every exchange: `errorId` is the tracking identifier of a 500 ("only available for 500"); any other
// error body that carries one (a 4xx, a 503) hands out what the spec keeps for server faults.
import type { PassiveCheck } from './passive-checks.ts';
import { responseJson } from './passive-checks.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const ERROR_ID_ONLY_ON_500: PassiveCheck = {
  rule: 'ERR-11',
  applies: (e) => (e.status ?? 0) >= 400 && e.status !== 500 && isObject(responseJson(e)),
  check: (e) => {
    const body = responseJson(e) as Record<string, unknown>;
    return 'errorId' in body ? `${e.status} error body carries errorId ${JSON.stringify(body.errorId)}: errorId belongs to a 500 only` : undefined;
  },
};

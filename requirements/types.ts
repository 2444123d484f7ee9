import type { AREAS } from './areas.ts';

export type RequirementLevel = 'MUST' | 'SHOULD' | 'INFO';
export type RequirementArea = keyof typeof AREAS;

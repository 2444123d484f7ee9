// Starts the embedded reference when no target is given, and describes it as a TargetProfile's keys.
import { startReference, type FaultName, type RunningReference } from '../../reference/index.ts';

/** Processing time for idempotent writes, so that concurrent duplicates really overlap (IDEM-03). */
const IDEMPOTENT_PROCESSING_DELAY_MS = 150;

export interface EmbeddedTarget {
  reference: RunningReference;
  keys: { primary: string; secondary: string; restricted: string };
}

export async function startEmbeddedTarget(faults: FaultName[]): Promise<EmbeddedTarget> {
  const reference = await startReference({ faults, idempotentProcessingDelayMs: IDEMPOTENT_PROCESSING_DELAY_MS });
  return {
    reference,
    keys: { primary: reference.apiKeys.dev, secondary: reference.apiKeys.prod, restricted: reference.apiKeys.restricted },
  };
}

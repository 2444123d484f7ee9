// What became of one call of the official SDK: read, or why not — in the words a vendor needs (model path, status).
import { issueLines, isZodErrorLike } from './zod-issues.ts';

export interface SdkOutcome {
  /** Undefined when the SDK returned its result; else one line saying what stopped it, with the model paths. */
  problem?: string;
}

type SdkResult = { ok: true; value: unknown } | { ok: false; error: unknown };

interface SdkErrorLike {
  name?: string;
  message?: string;
  cause?: unknown;
  statusCode?: number;
  body?: string;
}

export function sdkOutcome(result: SdkResult, maxIssues = 8): SdkOutcome {
  if (result.ok) return {};
  const error = result.error as SdkErrorLike;
  const name = error?.name ?? 'Error';
  if (name === 'ResponseValidationError' || name === 'SDKValidationError') {
    const lines = isZodErrorLike(error.cause) ? issueLines(error.cause) : [];
    const what = name === 'ResponseValidationError' ? 'the answer does not match its model' : 'the request was refused by the SDK itself (input validation)';
    const shown = lines.slice(0, maxIssues).join('; ') + (lines.length > maxIssues ? `; … (${lines.length - maxIssues} more)` : '');
    return { problem: `${name}: ${what}${shown ? `: ${shown}` : ''}` };
  }
  if (typeof error.statusCode === 'number') {
    return { problem: `${name}: the target answered ${error.statusCode}${error.body ? `: ${error.body.slice(0, 300)}` : ''}` };
  }
  return { problem: `${name}: ${error?.message ?? String(error)}` };
}

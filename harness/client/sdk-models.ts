// The official client's own models (@novu/api, pinned) for the eight operations: which model reads which answer.
// The SDK's generated functions name these per status (funcs/*.js, `M.json` / `M.jsonErr`); this is that table.
import { SDK_METADATA } from '@novu/api/lib/config.js';
import { AgentIntegrationResponseDto$inboundSchema } from '@novu/api/models/components/agentintegrationresponsedto.js';
import { DeleteTopicSubscriptionsResponseDto$inboundSchema } from '@novu/api/models/components/deletetopicsubscriptionsresponsedto.js';
import { EnvironmentResponseDto$inboundSchema } from '@novu/api/models/components/environmentresponsedto.js';
import { EnvironmentVariableResponseDto$inboundSchema } from '@novu/api/models/components/environmentvariableresponsedto.js';
import { GenerateLayoutPreviewResponseDto$inboundSchema } from '@novu/api/models/components/generatelayoutpreviewresponsedto.js';
import { GetSubscriberPreferencesDto$inboundSchema } from '@novu/api/models/components/getsubscriberpreferencesdto.js';
import { TriggerEventResponseDto$inboundSchema } from '@novu/api/models/components/triggereventresponsedto.js';
import { WorkflowResponseDto$inboundSchema } from '@novu/api/models/components/workflowresponsedto.js';
import { ErrorDto$inboundSchema } from '@novu/api/models/errors/errordto.js';
import { PayloadValidationExceptionDto$inboundSchema } from '@novu/api/models/errors/payloadvalidationexceptiondto.js';
import { ValidationErrorDto$inboundSchema } from '@novu/api/models/errors/validationerrordto.js';
import type { ZodErrorLike } from './zod-issues.ts';

/** The SDK's version, as it reports itself (package.json pins it). */
export const SDK_VERSION: string = SDK_METADATA.sdkVersion;
export const SDK_PACKAGE = '@novu/api';

/** A zod model of the SDK, seen structurally (its zod instance is not this project's). */
export interface SdkModel {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: ZodErrorLike };
}

export interface ModelRef {
  /** The SDK's name for the model, as reports print it. */
  name: string;
  model: SdkModel;
  /** The answer is an array of `model` items. */
  array?: boolean;
}

const ref = (name: string, model: unknown, array = false): ModelRef => ({ name, model: model as SdkModel, ...(array ? { array } : {}) });

/** The success status and answer model of each operation, keyed by the spec's path template. */
export const SUCCESS_MODELS: Record<string, { status: number; model: ModelRef }> = {
  '/v2/workflows': { status: 201, model: ref('WorkflowResponseDto', WorkflowResponseDto$inboundSchema) },
  '/v1/agents/{identifier}/integrations/{agentIntegrationId}': { status: 200, model: ref('AgentIntegrationResponseDto', AgentIntegrationResponseDto$inboundSchema) },
  '/v2/topics/{topicKey}/subscriptions': { status: 200, model: ref('DeleteTopicSubscriptionsResponseDto', DeleteTopicSubscriptionsResponseDto$inboundSchema) },
  '/v2/layouts/{layoutId}/preview': { status: 201, model: ref('GenerateLayoutPreviewResponseDto', GenerateLayoutPreviewResponseDto$inboundSchema) },
  '/v1/environment-variables': { status: 200, model: ref('EnvironmentVariableResponseDto', EnvironmentVariableResponseDto$inboundSchema, true) },
  '/v1/environments': { status: 200, model: ref('EnvironmentResponseDto', EnvironmentResponseDto$inboundSchema, true) },
  '/v2/subscribers/{subscriberId}/preferences': { status: 200, model: ref('GetSubscriberPreferencesDto', GetSubscriberPreferencesDto$inboundSchema) },
  '/v1/events/trigger': { status: 201, model: ref('TriggerEventResponseDto', TriggerEventResponseDto$inboundSchema) },
};

const ERROR_DTO = ref('ErrorDto', ErrorDto$inboundSchema);
const VALIDATION_ERROR_DTO = ref('ValidationErrorDto', ValidationErrorDto$inboundSchema);
const PAYLOAD_VALIDATION_EXCEPTION_DTO = ref('PayloadValidationExceptionDto', PayloadValidationExceptionDto$inboundSchema);

/**
 * The model CLIENT-03 reads a 4xx/500 answer with: ValidationErrorDto for 422, ErrorDto for the rest, as its text
 * says; undefined for 429/503/5xx, whose plain-string bodies the SDK does not parse. The SDK reads every trigger 400
 * as PayloadValidationExceptionDto; only a payload validation error is one, so only that is held to it.
 */
export function errorModel(template: string, status: number, body: unknown): ModelRef | undefined {
  if (status === 422) return VALIDATION_ERROR_DTO;
  if (status === 429 || status === 503 || (status >= 501 && status <= 599)) return undefined;
  if (template === '/v1/events/trigger' && status === 400 && isObject(body) && body.type === 'PAYLOAD_VALIDATION_ERROR') return PAYLOAD_VALIDATION_EXCEPTION_DTO;
  return status >= 400 ? ERROR_DTO : undefined;
}

/** Parses `body` as the SDK would: success models see the unwrapped body; error models also get the raw exchange. */
export function parseWithModel(ref: ModelRef, body: unknown, raw?: { url: string; status: number; text: string }): ZodErrorLike | undefined {
  const input = raw ? { ...(isObject(body) ? body : {}), request$: new Request(raw.url), response$: new Response(null, { status: raw.status }), body$: raw.text } : body;
  if (ref.array) {
    if (!Array.isArray(input)) return { issues: [{ code: 'invalid_type', path: [], message: `Expected array, received ${typeOf(input)}`, expected: 'array', received: typeOf(input) }] };
    const issues = input.flatMap((item, i) => {
      const r = ref.model.safeParse(item);
      return r.success ? [] : r.error.issues.map((issue) => ({ ...issue, path: [i, ...issue.path] }));
    });
    return issues.length > 0 ? { issues } : undefined;
  }
  const r = ref.model.safeParse(input);
  return r.success ? undefined : r.error;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

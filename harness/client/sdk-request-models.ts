// The official client's request models (@novu/api, pinned) for the eight operations: what the deployed contract lets
// a client send (CLIENT-04). Each is the SDK's outbound zod model: it takes the client's value and gives the wire body.
import { CreateWorkflowDto$outboundSchema } from '@novu/api/models/components/createworkflowdto.js';
import { DeleteTopicSubscriptionsRequestDto$outboundSchema } from '@novu/api/models/components/deletetopicsubscriptionsrequestdto.js';
import { LayoutPreviewRequestDto$outboundSchema } from '@novu/api/models/components/layoutpreviewrequestdto.js';
import { PatchSubscriberPreferencesDto$outboundSchema } from '@novu/api/models/components/patchsubscriberpreferencesdto.js';
import { TriggerEventRequestDto$outboundSchema } from '@novu/api/models/components/triggereventrequestdto.js';
import { UpdateAgentIntegrationRequestDto$outboundSchema } from '@novu/api/models/components/updateagentintegrationrequestdto.js';
import { issueLines, type ZodErrorLike } from './zod-issues.ts';

interface OutboundModel {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: ZodErrorLike };
}

export interface RequestModel {
  /** The SDK's name for the model, as reports print it. */
  name: string;
  /** The outbound model (its zod instance is not this project's: seen structurally). */
  model: OutboundModel;
}

const ref = (name: string, model: unknown): RequestModel => ({ name, model: model as OutboundModel });

/** The request body model of each operation with a body, keyed by the spec's path template. */
export const REQUEST_BODY_MODELS: Record<string, RequestModel> = {
  '/v2/workflows': ref('CreateWorkflowDto', CreateWorkflowDto$outboundSchema),
  '/v1/agents/{identifier}/integrations/{agentIntegrationId}': ref('UpdateAgentIntegrationRequestDto', UpdateAgentIntegrationRequestDto$outboundSchema),
  '/v2/topics/{topicKey}/subscriptions': ref('DeleteTopicSubscriptionsRequestDto', DeleteTopicSubscriptionsRequestDto$outboundSchema),
  '/v2/layouts/{layoutId}/preview': ref('LayoutPreviewRequestDto', LayoutPreviewRequestDto$outboundSchema),
  '/v2/subscribers/{subscriberId}/preferences': ref('PatchSubscriberPreferencesDto', PatchSubscriberPreferencesDto$outboundSchema),
  '/v1/events/trigger': ref('TriggerEventRequestDto', TriggerEventRequestDto$outboundSchema),
};

/**
 * The wire body the official client sends for `value` (its own form: `workflowId`, not `name`, for a trigger), or why
 * its model refuses to send it.
 */
export function sdkWireBody(template: string, value: unknown): { body: unknown } | { problem: string } {
  const ref = REQUEST_BODY_MODELS[template];
  if (!ref) return { problem: `${template} has no request body model in the official client` };
  const r = ref.model.safeParse(value);
  return r.success ? { body: r.data } : { problem: `${ref.name}: ${issueLines(r.error).slice(0, 3).join('; ')}` };
}

// One real, successful call of each of the spec's eight operations on provisioned state: what VER-01 sends
// under the listed prefix (must succeed) and under the other prefix (must not be served).
import type { ConformanceContext } from '../../harness/conformance/conformance.ts';
import type { Operation } from '../../harness/operations.ts';

export interface OperationCall {
  /** The concrete path under the operation's listed prefix. */
  path: string;
  body?: unknown;
  /** Success statuses: the spec's where it names one, otherwise any the deployed service uses. */
  success: readonly number[];
}

type Prepare = (ctx: ConformanceContext) => Promise<OperationCall>;

const enc = encodeURIComponent;

export const OPERATION_CALLS: Record<string, Prepare> = {
  'POST /v2/workflows': async ({ ids }) => {
    const workflowId = ids.slug('wf');
    return { path: '/v2/workflows', body: { name: `conformance ${workflowId}`, workflowId, steps: [] }, success: [201] };
  },
  'PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId}': async ({ provision }) => {
    const agent = await provision.agent();
    const integration = await provision.integration();
    const link = await provision.agentLink(agent.identifier, integration.identifier);
    return { path: `/v1/agents/${enc(agent.identifier)}/integrations/${enc(link._id)}`, body: { integrationIdentifier: integration.identifier }, success: [200] };
  },
  'DELETE /v2/topics/{topicKey}/subscriptions': async ({ provision }) => {
    const topic = await provision.topic();
    const { subscriberId } = await provision.subscriber();
    await provision.subscribe(topic.key, [subscriberId]);
    return { path: `/v2/topics/${enc(topic.key)}/subscriptions`, body: { subscriptions: [{ subscriberId }] }, success: [200] };
  },
  'POST /v2/layouts/{layoutId}/preview': async ({ provision }) => {
    const { layoutId } = await provision.layout();
    return { path: `/v2/layouts/${enc(layoutId)}/preview`, body: { controlValues: {}, previewPayload: { subscriber: { firstName: 'Ada' } } }, success: [200, 201] };
  },
  'GET /v1/environment-variables': async () => ({ path: '/v1/environment-variables', success: [200] }),
  'GET /v1/environments': async () => ({ path: '/v1/environments', success: [200] }),
  'PATCH /v2/subscribers/{subscriberId}/preferences': async ({ provision }) => {
    const { subscriberId } = await provision.subscriber();
    return { path: `/v2/subscribers/${enc(subscriberId)}/preferences`, body: { channels: { email: false } }, success: [200] };
  },
  'POST /v1/events/trigger': async ({ provision }) => {
    const wf = await provision.workflow();
    const { subscriberId } = await provision.subscriber();
    return { path: '/v1/events/trigger', body: { name: wf.workflowId, to: [subscriberId] }, success: [201] };
  },
};

export function prepareCall(op: Operation, ctx: ConformanceContext): Promise<OperationCall> {
  const prepare = OPERATION_CALLS[`${op.method} ${op.template}`];
  if (!prepare) throw new Error(`no VER-01 call is defined for ${op.method} ${op.template}`);
  return prepare(ctx);
}

/** `/v1/...` ↔ `/v2/...`. */
export function otherPrefix(path: string): string {
  return path.replace(/^\/v([12])\//, (_, v: string) => `/v${v === '1' ? '2' : '1'}/`);
}

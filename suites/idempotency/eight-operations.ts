// One valid request for each of the spec's eight operations, with the state it acts on provisioned first,
// and one request of the same operation that fails in the handler. Used where a rule holds "on every
// operation" (IDEM-01, RL-01, RL-02) and a placeholder path would stop short of the handler.
import { expect } from 'vitest';
import type { ConformanceContext } from '../../harness/conformance/conformance.ts';
import type { ApiClient, ApiResponse, RequestOptions } from '../../harness/http/api-client.ts';
import type { Operation } from '../../harness/operations.ts';

export interface PreparedRequest {
  method: Operation['method'];
  path: string;
  body?: unknown;
  query?: Record<string, string>;
}

type Setup = Pick<ConformanceContext, 'api' | 'provision' | 'ids' | 'cleanup'>;

const enc = encodeURIComponent;

/** Provisions what `op` acts on and returns a request the target should answer with 2xx. */
export async function prepareValidRequest(op: Operation, { api, provision, ids, cleanup }: Setup): Promise<PreparedRequest> {
  switch (op.template) {
    case '/v2/workflows': {
      const workflowId = ids.slug('wf');
      removeAfterwards(api, cleanup, `workflow ${workflowId}`, `/v2/workflows/${enc(workflowId)}`);
      return { method: 'POST', path: op.template, body: { name: `conformance ${workflowId}`, workflowId, steps: [{ name: 'in-app', type: 'in_app' }] } };
    }
    case '/v1/agents/{identifier}/integrations/{agentIntegrationId}': {
      const agent = await provision.agent();
      const linked = await provision.integration();
      const other = await provision.integration();
      const link = await provision.agentLink(agent.identifier, linked.identifier);
      return { method: 'PATCH', path: `/v1/agents/${enc(agent.identifier)}/integrations/${enc(link._id)}`, body: { integrationIdentifier: other.identifier } };
    }
    case '/v2/topics/{topicKey}/subscriptions': {
      const topic = await provision.topic();
      const subscriber = await provision.subscriber();
      await provision.subscribe(topic.key, [subscriber.subscriberId]);
      return { method: 'DELETE', path: `/v2/topics/${enc(topic.key)}/subscriptions`, body: { subscriptions: [{ subscriberId: subscriber.subscriberId }] } };
    }
    case '/v2/layouts/{layoutId}/preview': {
      const layout = await provision.layout();
      return {
        method: 'POST',
        path: `/v2/layouts/${enc(layout.layoutId)}/preview`,
        body: { controlValues: {}, previewPayload: { subscriber: { firstName: 'Conformance' } } },
      };
    }
    case '/v1/environment-variables':
    case '/v1/environments':
      return { method: 'GET', path: op.template };
    case '/v2/subscribers/{subscriberId}/preferences': {
      const subscriber = await provision.subscriber();
      return { method: 'PATCH', path: `/v2/subscribers/${enc(subscriber.subscriberId)}/preferences`, body: { channels: { email: false } } };
    }
    case '/v1/events/trigger': {
      const workflow = await provision.workflow();
      const subscriber = await provision.subscriber();
      return { method: 'POST', path: op.template, body: { name: workflow.workflowId, to: [subscriber.subscriberId] } };
    }
    default:
      throw new Error(`no valid request is known for ${op.method} ${op.template}`);
  }
}

/** A request of `op` that reaches the handler and fails there (unknown resource or invalid body); none for GET /v1/environments. */
export function failingRequest(op: Operation, ids: Setup['ids']): PreparedRequest | undefined {
  const unknown = ids.slug('missing');
  switch (op.template) {
    case '/v2/workflows':
      return { method: 'POST', path: op.template, body: { steps: [] } };
    case '/v1/agents/{identifier}/integrations/{agentIntegrationId}':
      return { method: 'PATCH', path: `/v1/agents/${unknown}/integrations/000000000000000000000000`, body: { integrationIdentifier: unknown } };
    case '/v2/topics/{topicKey}/subscriptions':
      return { method: 'DELETE', path: `/v2/topics/${unknown}/subscriptions`, body: { subscriptions: [{ subscriberId: unknown }] } };
    case '/v2/layouts/{layoutId}/preview':
      return { method: 'POST', path: `/v2/layouts/${unknown}/preview`, body: { controlValues: {}, previewPayload: {} } };
    case '/v1/environment-variables':
      return { method: 'GET', path: op.template, query: { search: 'x'.repeat(300) } };
    case '/v2/subscribers/{subscriberId}/preferences':
      return { method: 'PATCH', path: `/v2/subscribers/${unknown}/preferences`, body: { channels: { email: false } } };
    case '/v1/events/trigger':
      return { method: 'POST', path: op.template, body: { payload: {} } };
    default:
      return undefined;
  }
}

export function sendPrepared(api: ApiClient, request: PreparedRequest, options: RequestOptions = {}): Promise<ApiResponse> {
  return api.request(request.method, request.path, {
    ...options,
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...(request.query ? { query: request.query } : {}),
  });
}

/** Registers the removal of something a test creates itself (not through provision). */
export function removeAfterwards(api: ApiClient, cleanup: Setup['cleanup'], label: string, path: string): void {
  cleanup.add(label, async () => {
    const res = await api.delete(path);
    if (res.status >= 300 && res.status !== 404) throw new Error(`DELETE ${path} answered ${res.status}`);
  });
}

export const isSuccess = (res: ApiResponse): boolean => res.status >= 200 && res.status < 300;

export function expectSuccess(res: ApiResponse, why: string): void {
  expect(isSuccess(res), `${why} must succeed (2xx), got ${res.status}: ${res.text.slice(0, 300)}`).toBe(true);
}

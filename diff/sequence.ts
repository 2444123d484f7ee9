// One deterministic sequence: each of the eight operations on state provisioned for it, with bodies that leave the
// defaults to the target (so a changed default shows). Identifiers come from the run prefix and a counter, so the
// candidate and the reference receive exactly the same requests.
import type { Provisioner } from '../fixtures/provision.ts';
import type { Cleanup } from '../harness/conformance/cleanup.ts';
import type { IdFactory } from '../harness/conformance/ids.ts';
import type { Operation } from '../harness/operations.ts';
import type { NormalizeOptions } from './normalize.ts';

export interface DiffContext {
  provision: Provisioner;
  cleanup: Cleanup;
  ids: IdFactory;
}

export interface DiffRequest {
  method: Operation['method'];
  path: string;
  body?: unknown;
  query?: Record<string, string>;
}

export interface DiffStep {
  /** The operation, named as `conformance fuzz --operation` names it. */
  operation: string;
  prepare(ctx: DiffContext): Promise<DiffRequest>;
  /** Where this operation's answers hold server-made values beyond the usual ids, and which arrays are sets. */
  normalize?: NormalizeOptions;
}

const enc = encodeURIComponent;

export const DIFF_SEQUENCE: readonly DiffStep[] = [
  {
    operation: 'create-workflow',
    prepare: async ({ ids, cleanup }) => {
      const workflowId = ids.slug('wf');
      cleanup.remove(`workflow ${workflowId}`, `/v2/workflows/${enc(workflowId)}`);
      const steps = [{ name: 'Inbox', type: 'in_app' }, { name: 'Digest', type: 'digest', stepId: 'daily-digest' }];
      return { method: 'POST', path: '/v2/workflows', body: { name: 'Diff workflow', workflowId, steps, description: 'compared', tags: ['diff'] } };
    },
  },
  {
    operation: 'update-agent-integration',
    prepare: async ({ provision }) => {
      const { agent, link, other } = await provision.linkedAgent();
      return { method: 'PATCH', path: `/v1/agents/${enc(agent)}/integrations/${enc(link._id)}`, body: { integrationIdentifier: other.identifier } };
    },
  },
  {
    operation: 'delete-topic-subscriptions',
    prepare: async ({ provision, ids }) => {
      const { key } = await provision.topic();
      const kept = (await provision.subscriber()).subscriberId;
      const removed = (await provision.subscriber()).subscriberId;
      await provision.subscribe(key, [kept, removed]);
      // one entry that matches, one subscriber that does not exist: a partial success
      return { method: 'DELETE', path: `/v2/topics/${enc(key)}/subscriptions`, body: { subscriptions: [{ identifier: `${key}:${removed}` }, { subscriberId: ids.slug('ghost') }] } };
    },
    normalize: { unordered: ['/data', '/errors'] },
  },
  {
    operation: 'layout-preview',
    prepare: async ({ provision }) => {
      const { layoutId } = await provision.layout();
      const body = { controlValues: { email: { body: '<p>Hello {{subscriber.firstName}}</p>' } }, previewPayload: { subscriber: { firstName: 'Ada', lastName: 'Lovelace' } } };
      return { method: 'POST', path: `/v2/layouts/${enc(layoutId)}/preview`, body };
    },
  },
  {
    operation: 'list-environment-variables',
    prepare: async ({ provision, ids }) => {
      const { all } = await provision.environments();
      const values = all.map((e) => ({ _environmentId: e._id, value: `value-${e.type}` }));
      const plain = await provision.environmentVariable({ key: ids.slug('VAR').toUpperCase().replaceAll('-', '_'), isSecret: false, values });
      await provision.environmentVariable({ key: `${plain.key}_SECRET`, isSecret: true, values });
      return { method: 'GET', path: '/v1/environment-variables', query: { search: plain.key } };
    },
    normalize: { unordered: ['', '/*/values'] },
  },
  {
    operation: 'list-environments',
    prepare: async () => ({ method: 'GET', path: '/v1/environments' }),
    normalize: { volatile: ['/*/identifier'], unordered: ['', '/*/apiKeys'] },
  },
  {
    operation: 'update-subscriber-preferences',
    prepare: async ({ provision }) => {
      await provision.workflow();
      const { subscriberId } = await provision.subscriber();
      const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
      return { method: 'PATCH', path: `/v2/subscribers/${enc(subscriberId)}/preferences`, body: { channels: { email: false }, schedule } };
    },
  },
  {
    operation: 'trigger-event',
    prepare: async ({ provision }) => {
      const workflow = await provision.workflow();
      const { subscriberId } = await provision.subscriber();
      return { method: 'POST', path: '/v1/events/trigger', body: { name: workflow.workflowId, to: [subscriberId], payload: { orderId: 'A-1' } } };
    },
  },
];

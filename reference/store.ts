// In-memory state: one organization, per-environment resource maps, org-level environment variables.
import { createHash, randomBytes } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { objectId } from './util.ts';

export const CHANNELS = ['email', 'sms', 'in_app', 'chat', 'push', 'tool'] as const;
export type Channel = (typeof CHANNELS)[number];
export type ChannelFlags = Record<Channel, boolean>;

export interface Step {
  _id: string;
  stepId: string;
  slug: string;
  name: string;
  type: string;
  controlValues?: Record<string, unknown>;
}

export interface Workflow {
  _id: string;
  workflowId: string;
  slug: string;
  name: string;
  description?: string;
  tags: string[];
  active: boolean;
  validatePayload?: boolean;
  payloadSchema: Record<string, unknown> | null;
  isTranslationEnabled: boolean;
  agent: Record<string, unknown> | null;
  source?: string;
  preferences: Record<string, unknown>;
  severity: string;
  steps: Step[];
  createdAt: string;
  updatedAt: string;
  lastTriggeredAt: string | null;
  payloadExample: Record<string, unknown> | null;
  /** Compiled once at creation: per-trigger validation must stay cheap. */
  validator?: ValidateFunction;
  runs: number;
}

export interface Schedule {
  isEnabled?: boolean;
  weeklySchedule?: Record<string, { isEnabled?: boolean; hours: { start: string; end: string }[] }>;
}

export interface WorkflowPreference {
  channels: Partial<ChannelFlags>;
  overrides: { channel: Channel; source: 'subscriber' }[];
  updatedAt: string;
}

export interface Subscriber {
  _id: string;
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  avatar: string | null;
  locale: string | null;
  timezone: string | null;
  data: Record<string, unknown> | null;
  channels?: unknown[];
  createdAt: string;
  updatedAt: string;
  globalChannels: ChannelFlags;
  globalEnabled: boolean;
  schedule?: Schedule;
  /** Keyed by workflow _id. */
  workflowPrefs: Map<string, WorkflowPreference>;
}

export interface Subscription {
  _id: string;
  identifier: string;
  subscriberId: string;
  createdAt: string;
  updatedAt: string;
}

export interface Topic {
  _id: string;
  key: string;
  name: string;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  /** Keyed by subscription identifier. */
  subscriptions: Map<string, Subscription>;
}

export interface Layout {
  _id: string;
  layoutId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

export interface Integration {
  _id: string;
  identifier: string;
  name: string;
  providerId: string;
  channel: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Agent {
  _id: string;
  identifier: string;
  name: string;
  description?: string;
  createdAt: string;
  updatedAt: string;
}

export interface AgentLink {
  _id: string;
  _agentId: string;
  integrationId: string;
  createdAt: string;
  updatedAt: string;
  connectedAt: string | null;
}

export interface EnvironmentVariable {
  _id: string;
  key: string;
  type: 'string';
  isSecret: boolean;
  values: { _environmentId: string; value: string }[];
  createdAt: string;
  updatedAt: string;
}

/** Everything one environment owns. */
export class EnvironmentState {
  readonly workflows = new Map<string, Workflow>(); // by _id
  readonly workflowsByKey = new Map<string, Workflow>(); // by workflowId and slug
  readonly subscribers = new Map<string, Subscriber>(); // by subscriberId
  readonly topics = new Map<string, Topic>(); // by key
  readonly layouts = new Map<string, Layout>(); // by layoutId
  readonly integrations = new Map<string, Integration>(); // by _id
  readonly agents = new Map<string, Agent>(); // by identifier
  readonly links = new Map<string, AgentLink>(); // by _id
  readonly transactionIds = new Set<string>();
  triggerRuns = 0;

  constructor(
    readonly _id: string,
    readonly name: string,
    readonly type: 'dev' | 'prod',
    readonly slug: string,
    readonly identifier: string,
    readonly _parentId?: string,
  ) {}

  findWorkflow(idOrKey: string): Workflow | undefined {
    return this.workflowsByKey.get(idOrKey) ?? this.workflows.get(idOrKey);
  }

  addWorkflow(wf: Workflow): void {
    this.workflows.set(wf._id, wf);
    this.workflowsByKey.set(wf.workflowId, wf);
    this.workflowsByKey.set(wf.slug, wf);
  }

  removeWorkflow(wf: Workflow): void {
    this.workflows.delete(wf._id);
    this.workflowsByKey.delete(wf.workflowId);
    this.workflowsByKey.delete(wf.slug);
    for (const s of this.subscribers.values()) s.workflowPrefs.delete(wf._id);
  }

  findIntegrationByIdentifier(identifier: string): Integration | undefined {
    for (const i of this.integrations.values()) if (i.identifier === identifier) return i;
    return undefined;
  }
}

export interface ApiKeyRecord {
  key: string;
  envId: string;
  restricted: boolean;
  userId: string;
  hash: string;
}

export interface ApiKeys {
  dev: string;
  prod: string;
  restricted: string;
}

/** The single organization the reference serves. */
export class OrganizationState {
  readonly _id = objectId();
  readonly userId = objectId();
  readonly dev: EnvironmentState;
  readonly prod: EnvironmentState;
  readonly environmentVariables = new Map<string, EnvironmentVariable>(); // by key
  readonly apiKeys = new Map<string, ApiKeyRecord>();
  readonly keys: ApiKeys;

  /** Keys not given are random, so two references never share one. */
  constructor(given: Partial<ApiKeys> = {}) {
    this.dev = new EnvironmentState(objectId(), 'Development', 'dev', 'development', randomBytes(6).toString('hex'));
    this.prod = new EnvironmentState(objectId(), 'Production', 'prod', 'production', randomBytes(6).toString('hex'), this.dev._id);
    const mk = (prefix: string) => `nk_${prefix}_${randomBytes(16).toString('hex')}`;
    this.keys = { dev: given.dev ?? mk('dev'), prod: given.prod ?? mk('prod'), restricted: given.restricted ?? mk('restricted') };
    const add = (key: string, envId: string, restricted: boolean) =>
      this.apiKeys.set(key, { key, envId, restricted, userId: this.userId, hash: createHash('sha256').update(key).digest('hex') });
    add(this.keys.dev, this.dev._id, false);
    add(this.keys.prod, this.prod._id, false);
    add(this.keys.restricted, this.dev._id, true);
  }

  environment(envId: string): EnvironmentState {
    return envId === this.prod._id ? this.prod : this.dev;
  }

  /** Every resource held, as `<environment>/<kind>` → keys; environment variables are organization-wide. */
  inventory(): Record<string, string[]> {
    const out: Record<string, string[]> = { 'organization/environment-variables': [...this.environmentVariables.keys()] };
    for (const env of [this.dev, this.prod]) {
      const kinds = { workflows: env.workflows, subscribers: env.subscribers, topics: env.topics, layouts: env.layouts, integrations: env.integrations, agents: env.agents };
      for (const [kind, map] of Object.entries(kinds)) out[`${env.type}/${kind}`] = [...map.keys()];
    }
    return out;
  }

  get environments(): EnvironmentState[] {
    return [this.dev, this.prod];
  }
}

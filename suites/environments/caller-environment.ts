// Which environment and organization the caller's key belongs to, learned independently of GET /v1/environments.
import type { ApiClient } from '../../harness/http/api-client.ts';
import type { Provisioner } from '../../fixtures/provision.ts';
import { Skip } from '../../harness/conformance/skip.ts';

export interface ListedEnvironment {
  _id?: string;
  _organizationId?: unknown;
  apiKeys?: { key?: unknown }[];
  [field: string]: unknown;
}

export interface Caller {
  environmentId?: string;
  organizationId?: string;
  /** How the environment was identified, for failure messages. */
  source: string;
}

/**
 * First choice: a resource the key creates names its `_environmentId`/`_organizationId` (POST /v1/integrations).
 * Fallback: the listed environment whose apiKeys hold the caller's own key (compared, never printed).
 */
export async function identifyCaller(provision: Provisioner, api: ApiClient, listed: ListedEnvironment[]): Promise<Caller> {
  try {
    const integration = await provision.integration();
    const environmentId = typeof integration._environmentId === 'string' ? integration._environmentId : undefined;
    const organizationId = typeof integration._organizationId === 'string' ? integration._organizationId : undefined;
    if (environmentId) return { environmentId, ...(organizationId ? { organizationId } : {}), source: `the _environmentId of an integration created with the key` };
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
  }
  const key = api.keyOf('primary');
  const own = listed.find((e) => (e.apiKeys ?? []).some((k) => k.key === key));
  return own?._id ? { environmentId: own._id, source: 'the environment whose apiKeys hold the caller’s key' } : { source: 'none' };
}

export function hasKeys(environment: ListedEnvironment): boolean {
  return Array.isArray(environment.apiKeys) && environment.apiKeys.length > 0;
}

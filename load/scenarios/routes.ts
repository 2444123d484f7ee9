// The routes load scenarios send, with their rate-limit category and token cost (spec § Limits, provisioning.md).

export const ROUTES = {
  trigger: { method: 'POST', path: '/v1/events/trigger', category: 'trigger', cost: 1 },
  'trigger-bulk': { method: 'POST', path: '/v1/events/trigger/bulk', category: 'trigger', cost: 100 },
  'environment-variables': { method: 'GET', path: '/v1/environment-variables', category: 'configuration', cost: 1 },
  environments: { method: 'GET', path: '/v1/environments', category: 'global', cost: 1 },
  'subscribers-bulk': { method: 'POST', path: '/v1/subscribers/bulk', category: 'configuration', cost: 100 },
} as const satisfies Record<string, { method: 'GET' | 'POST'; path: string; category: 'trigger' | 'configuration' | 'global'; cost: number }>;

export type RouteName = keyof typeof ROUTES;
export type Category = (typeof ROUTES)[RouteName]['category'];

export const ROUTE_NAMES = Object.keys(ROUTES) as RouteName[];

/** One cheap route per category whose response carries that category's RateLimit-Policy. */
export const PROBE_ROUTES: Record<Category, RouteName> = { trigger: 'trigger', configuration: 'environment-variables', global: 'environments' };

/** What a load run creates on the target before it starts (and removes afterwards). */
export interface LoadFixture {
  workflowId: string;
  subscriberId: string;
  bulkSubscriberId: string;
}

/** The request body of one route: one small event keeps the target's work per request low. */
export function bodyFor(route: RouteName, f: LoadFixture): string | undefined {
  switch (route) {
    case 'trigger':
      return JSON.stringify({ name: f.workflowId, to: [f.subscriberId] });
    case 'trigger-bulk':
      return JSON.stringify({ events: [{ name: f.workflowId, to: [f.subscriberId] }] });
    case 'subscribers-bulk':
      // why: the same subscriberId every time is an upsert, so the run leaves one subscriber to delete
      return JSON.stringify({ subscribers: [{ subscriberId: f.bulkSubscriberId }] });
    default:
      return undefined;
  }
}

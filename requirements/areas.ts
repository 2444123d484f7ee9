// Areas of RULES.md, in document order, with their headings.
export const AREAS = {
  AUTH: 'authentication and isolation',
  ERR: 'error format',
  RL: 'rate limits',
  IDEM: 'idempotency',
  WF: 'create a workflow (`POST /v2/workflows`)',
  AGI: 'update an agent integration (`PATCH /v1/agents/{identifier}/integrations/{agentIntegrationId}`)',
  TS: 'delete topic subscriptions (`DELETE /v2/topics/{topicKey}/subscriptions`)',
  LP: 'layout preview (`POST /v2/layouts/{layoutId}/preview`)',
  EV: 'list environment variables (`GET /v1/environment-variables`)',
  ENV: 'list environments (`GET /v1/environments`)',
  PREF: 'update subscriber preferences (`PATCH /v2/subscribers/{subscriberId}/preferences`)',
  TRIG: 'trigger an event (`POST /v1/events/trigger`)',
  VER: 'versioning',
  CLIENT: 'the official client and the deployed contract',
} as const;

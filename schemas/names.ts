// The 27 schema names: the `$id` of each `schemas/<Name>.schema.json`, the names reports and the CLI use.
export const SCHEMA_NAMES = [
  'CreateWorkflowDto',
  'StepUpsertDto',
  'WorkflowResponseDto',
  'StepResponseDto',
  'WorkflowPreferencesRequestDto',
  'WorkflowAgentConfigDto',
  'UpdateAgentIntegrationRequestDto',
  'AgentIntegrationResponseDto',
  'DeleteTopicSubscriptionsRequestDto',
  'DeleteTopicSubscriptionsResponseDto',
  'TopicSubscriptionDto',
  'LayoutPreviewRequestDto',
  'LayoutPreviewResponseDto',
  'LayoutPreviewSubscriberDto',
  'EnvironmentVariableDto',
  'EnvironmentDto',
  'PatchSubscriberPreferencesDto',
  'SubscriberPreferencesDto',
  'ScheduleDto',
  'TriggerEventRequestDto',
  'TriggerRecipientDto',
  'TriggerEventResponseDto',
  'ErrorDto',
  'ValidationErrorDto',
  'PayloadValidationErrorDto',
  'RateLimitExceededBody',
  'RateLimitPolicyHeader',
] as const;

export type SchemaName = (typeof SCHEMA_NAMES)[number];

export function isSchemaName(value: string): value is SchemaName {
  return (SCHEMA_NAMES as readonly string[]).includes(value);
}

/** `$id` of the derived closed variant used by strict mode (relative refs inside it resolve to other closed variants). */
export const STRICT_PREFIX = 'strict/';

// The catalog of deliberate rule breaks: each fault flips ONE behaviour and names the rules it breaks.
// `deployedOnly`: the fault breaks only the deployed contract (a field the spec does not show); the proof also
// requires that no MUST rule fails under it, so the suite never holds a vendor to it at MUST level.
import type { RuleId } from '../requirements/index.ts';

export const FAULTS = {
  // AUTH
  'missing-auth-accepted': { rules: ['AUTH-01'], description: 'A request without an Authorization header is served as the dev environment' },
  'unknown-key-accepted': { rules: ['AUTH-02'], description: 'Any `ApiKey <value>` (even unknown or empty) authenticates as the dev environment' },
  'trailing-garbage-accepted': { rules: ['AUTH-02'], description: 'A valid key followed by extra characters is accepted (prefix match)' },
  'bearer-accepted': { rules: ['AUTH-03'], description: '`Authorization: Bearer <valid key>` is accepted' },
  'bare-key-accepted': { rules: ['AUTH-03'], description: 'A bare `<valid key>` without a scheme is accepted' },
  'restricted-can-write': { rules: ['AUTH-04'], description: 'The restricted key may write (POST/PATCH/PUT/DELETE succeed instead of 403)' },
  'restricted-gets-401': { rules: ['AUTH-04'], description: 'A write with the restricted key gets 401 instead of 403' },
  'shared-environment-state': { rules: ['AUTH-05'], description: 'Both environment keys read and write the same (dev) state' },
  'cross-environment-delete': { rules: ['AUTH-05'], description: 'DELETE /v2/workflows/{id} also finds and deletes workflows of the other environment' },
  // ERR
  'error-body-missing-path': { rules: ['ERR-01'], description: 'Error bodies omit `path`' },
  'error-body-missing-timestamp': { rules: ['ERR-01'], description: 'Error bodies omit `timestamp`' },
  'error-status-code-mismatch': { rules: ['ERR-01'], description: 'Error bodies carry `statusCode` as a string' },
  'wrong-422-shape': { rules: ['ERR-02'], description: '422 bodies carry `errors` as an array of strings instead of a field map' },
  '500-without-errorId': { rules: ['ERR-08'], description: 'Malformed JSON bodies, and any trigger whose payload has the key `__crash`, produce a 500 without `errorId`' },
  'not-found-as-400': { rules: ['ERR-03'], description: 'Unknown resources are answered 400 instead of 404' },
  'method-not-allowed-500': { rules: ['ERR-04'], description: 'An unsupported method on a known path is answered 500 (with errorId) instead of 405' },
  'no-body-limit': { rules: ['ERR-05'], description: 'Request bodies of any size are accepted (no 413)' },
  'no-uri-limit': { rules: ['ERR-06'], description: 'Overlong URIs are routed as usual (no 414)' },
  'media-type-ignored': { rules: ['ERR-07'], description: 'Bodies are parsed as JSON whatever their Content-Type (no 415)' },
  'no-idempotency-link': { rules: ['ERR-10'], description: 'Idempotency 409/422 responses carry no Link header' },
  'text-plain-content-type': { rules: ['ERR-09'], description: 'JSON responses are labelled `Content-Type: text/plain`' },
  // RL
  'no-ratelimit-headers': { rules: ['RL-01'], description: 'No RateLimit-* headers on any response' },
  'malformed-policy-header': { rules: ['RL-02'], description: 'RateLimit-Policy is `limit=3000, window=5s` instead of the structured form' },
  'burst-below-limit': { rules: ['RL-02'], description: 'RateLimit-Policy announces, and the bucket holds, a burst of ⌊limit × 0.9⌋ instead of the deployed plans\' ⌊limit × 1.1⌋ (found by mutation testing)' },
  'fractional-reset': { rules: ['RL-02'], description: 'RateLimit-Reset and Retry-After are fractional seconds (e.g. `0.42`)' },
  'remaining-not-decremented': { rules: ['RL-03'], description: 'RateLimit-Remaining always reports the full burst' },
  'bulk-costs-one': { rules: ['RL-03'], description: 'Bulk requests cost 1 token instead of 100' },
  'no-retry-after': { rules: ['RL-04'], description: '429 responses omit Retry-After' },
  'limit-too-generous': { rules: ['RL-05'], description: 'The trigger bucket refills at 1.5× the configured rate (900/s by default)' },
  'limit-too-strict': { rules: ['RL-05'], description: 'The trigger bucket refills at 2/3 of the configured rate (400/s by default)' },
  'shared-buckets': { rules: ['RL-06'], description: 'All categories of an environment share one bucket' },
  'reset-zero-when-accepted': { rules: ['RL-07'], description: 'RateLimit-Reset is 0 on every response but a 429, even when the bucket holds less than another request of the same cost needs' },
  '503-without-retry-after': { rules: ['RL-10'], description: 'Every 50th trigger answers 503 without Retry-After' },
  // IDEM
  'idempotency-key-rejected': { rules: ['IDEM-01'], description: 'Any request carrying an Idempotency-Key gets 400' },
  'idempotency-key-max-64': { rules: ['IDEM-01'], description: 'Idempotency keys longer than 64 characters get 400' },
  'idempotency-ignored': { rules: ['IDEM-02'], description: 'Idempotency-Key is never cached: every repeat is processed again (still echoed)' },
  'no-replay-header': { rules: ['IDEM-02'], description: 'Replays omit `Idempotency-Replay: true`' },
  'replay-wrong-status': { rules: ['IDEM-02'], description: 'Replays answer 200 whatever the original status' },
  'replay-reprocesses': { rules: ['IDEM-02'], description: 'A replay re-runs the request (second effect, fresh body) while claiming `Idempotency-Replay: true`' },
  'idempotency-race': { rules: ['IDEM-03'], description: 'No in-flight lock: concurrent duplicates are each processed' },
  'completed-key-forgotten-early': { rules: ['IDEM-02'], longChecks: true, description: 'A completed idempotency key is kept 10 s instead of 24 h: the same request repeated 25 s later is processed again instead of replayed (found by mutation testing; only the long checks wait that long)' },
  'in-flight-lock-expires-early': { rules: ['IDEM-03'], description: 'The in-flight lock lasts 50 ms instead of 5 min: a duplicate arriving later while the first is still processed is processed again (found by mutation testing)' },
  'reused-key-422-without-message': { rules: ['IDEM-05'], description: 'The 422 for a key reused with another body carries an empty `message` (found by mutation testing)' },
  'in-flight-409-without-message': { rules: ['IDEM-03'], description: 'The 409 for an in-flight duplicate carries an empty `message` (found by mutation testing)' },
  'no-idempotency-key-echo': { rules: ['IDEM-04'], description: 'Responses do not echo the Idempotency-Key header' },
  'replay-consumes-token': { rules: ['IDEM-08'], description: 'Replayed requests consume a rate-limit token' },
  // WF
  'workflow-response-missing-slug': { rules: ['WF-01'], description: 'The workflow response has no `slug`' },
  'workflow-create-200': { rules: ['WF-01'], description: 'Workflow creation answers 200 instead of 201' },
  'empty-steps-rejected': { rules: ['WF-01'], description: 'A workflow with `steps: []` is rejected with 422' },
  'payload-schema-vendor-keyword-rejected': { rules: ['WF-01'], description: 'A payloadSchema with a vendor keyword (`x-…`, unknown to JSON Schema) is rejected with 422, as Ajv\'s strict mode does' },
  'payload-example-bare-subschema-crash': { rules: ['WF-01'], description: 'A payloadSchema without `properties`, or with a property that is a boolean schema or an object schema without `properties`, crashes payloadExample generation (500)' },
  'active-defaults-true': { rules: ['WF-02'], description: '`active` defaults to true' },
  'translation-defaults-true': { rules: ['WF-02'], description: '`isTranslationEnabled` defaults to true' },
  'source-echoed': { rules: ['WF-02'], description: '`__source` appears in the workflow response' },
  'workflow-fields-not-echoed': { rules: ['WF-02'], description: '`description` and `tags` are not echoed' },
  'falsy-fields-dropped': { rules: ['WF-02'], description: 'The response leaves out `description`, `validatePayload`, `tags` and `payloadSchema` sent with a falsy or empty value (`""`, `false`, `[]`, `{}`), as a serializer that drops falsy fields does' },
  'workflow-id-lower-cased': { rules: ['WF-02'], description: 'A mixed-case `workflowId` is stored and answered in lower case' },
  'given-step-id-replaced': { rules: ['WF-02'], description: 'A step\'s given `stepId` is replaced by the one derived from its name' },
  'empty-objects-null': { rules: ['WF-02'], description: 'A `payloadSchema` sent as the empty object `{}` is answered as null' },
  'severity-low-dropped': { rules: ['WF-02'], description: 'A workflow sent with `severity: "low"` is stored and answered with `none` (a mapping table without `low`)' },
  'workflow-preferences-channels-limited': { rules: ['WF-07'], description: 'Workflow `preferences` naming the channels `push`, `chat` or `tool` are rejected with 422 (only email, sms and in_app are known)' },
  'agent-missing-when-unassigned': { rules: ['WF-02'], description: '`agent` is absent (not null) when unassigned' },
  'missing-name-accepted': { rules: ['WF-03'], description: 'A workflow without `name` is accepted (name defaults to workflowId)' },
  'missing-steps-accepted': { rules: ['WF-03'], description: 'A workflow without `steps` is accepted' },
  'slug-pattern-unchecked': { rules: ['WF-04'], description: '`workflowId` is not checked against the slug pattern' },
  'step-order-reversed': { rules: ['WF-05'], description: 'Response steps come back in reverse order' },
  'unknown-step-type-accepted': { rules: ['WF-05'], description: 'A step with an unknown `type` is accepted' },
  'http-request-step-rejected': { rules: ['WF-05'], description: 'Steps of type `http_request` are rejected with 422' },
  'step-name-optional': { rules: ['WF-06'], description: 'A step without `name` is accepted' },
  'step-id-pattern-unchecked': { rules: ['WF-06'], description: 'A step `stepId` outside the slug pattern is accepted' },
  'preferences-dropped': { rules: ['WF-07'], description: 'The workflow response has no `preferences`' },
  'agent-dropped': { rules: ['WF-08'], description: '`agent` is not stored: the response always has `agent: null`' },
  'agent-empty-providers-null': { rules: ['WF-08'], description: 'An `agent` whose `providers` is the empty map `{}` is answered as `agent: null`' },
  'agent-providers-dropped': { rules: ['WF-08'], description: '`agent.providers` is not stored' },
  'timestamps-not-iso': { rules: ['WF-11'], deployedOnly: true, description: 'Workflow createdAt/updatedAt are epoch-millisecond strings (the spec leaves the timestamp format open)' },
  'timestamps-rfc1123': { rules: ['WF-11'], deployedOnly: true, description: 'Workflow, run and preference timestamps are RFC 1123 strings (`Sun, 29 Nov 2026 07:00:00 GMT`; the spec leaves the format open)' },
  'bad-origin-enum': { rules: ['WF-11'], deployedOnly: true, description: 'Workflow `origin` is `cloud`, outside the deployed values (the spec leaves them open)' },
  'workflow-status-lower-case': { rules: ['WF-11'], deployedOnly: true, description: 'Workflow `status` is written in lower case (`active`, `inactive`; the spec leaves the values open)' },
  'override-source-renamed': { rules: ['WF-11'], deployedOnly: true, description: 'Preference overrides carry `source: "user"` instead of the deployed `subscriber` (the spec shows only that `subscriber` is allowed)' },
  // CLIENT: deployed-only fields the spec does not show; caught by the official client's models, by no MUST rule
  'step-origin-missing': { rules: ['CLIENT-01', 'CLIENT-02'], deployedOnly: true, description: 'Workflow response steps carry no `origin`' },
  'step-database-id-mistyped': { rules: ['CLIENT-01', 'CLIENT-02'], deployedOnly: true, description: 'Workflow response steps carry `workflowDatabaseId` as a number' },
  'error-message-nested': { rules: ['CLIENT-03'], deployedOnly: true, description: 'Error bodies carry `message` as a list of lists (the official client reads a list of scalars or objects)' },
  // AGI
  'agi-wrong-integration': { rules: ['AGI-01'], description: 'PATCH on an agent integration returns 200 but the link keeps its old integration' },
  'agi-missing-identifier-accepted': { rules: ['AGI-02'], description: 'PATCH without `integrationIdentifier` (or not a string) answers 200 with the unchanged link' },
  'agi-internal-id-accepted': { rules: ['AGI-04'], description: 'The integration `_id` is accepted as `integrationIdentifier`' },
  'agi-foreign-link-accepted': { rules: ['AGI-03'], description: 'A link of another agent is found and updated under this agent\'s path instead of 404 (found by mutation testing)' },
  'connected-at-set': { rules: ['AGI-05'], description: '`connectedAt` is set at link creation although no webhook was delivered' },
  // TS
  'ts-delete-ignored': { rules: ['TS-01'], description: 'Deleting by `identifier` reports success but removes nothing' },
  'ts-subscriber-only-ignored': { rules: ['TS-02'], description: 'An entry with only `subscriberId` removes only the first of the subscriber\'s subscriptions' },
  'ts-no-partial-errors': { rules: ['TS-03'], description: 'Unknown subscribers are silently counted as successful and absent from `errors`' },
  'ts-partial-400': { rules: ['TS-03'], description: 'A partial success answers 400 instead of 200' },
  'ts-wrong-total': { rules: ['TS-04'], description: '`meta.totalCount` counts removed subscriptions, not entries' },
  'ts-cap-off': { rules: ['TS-05'], description: '101 `subscriptions` entries are accepted' },
  'ts-cap-off-by-one': { rules: ['TS-05'], description: 'Exactly 100 `subscriptions` entries are rejected' },
  'ts-cap-partial-remove': { rules: ['TS-05'], description: 'Over 100 entries is rejected, but only after removing the first 100' },
  'ts-cap-off-deprecated': { rules: ['TS-06'], description: '101 `subscriberIds` entries are accepted' },
  'ts-deprecated-ignored': { rules: ['TS-06'], description: 'The deprecated `subscriberIds` field is ignored' },
  'ts-bad-identifier': { rules: ['TS-07'], description: 'Subscription identifiers join topic key and subscriber id with `-` instead of `:`' },
  'ts-bad-context-keys': { rules: ['TS-07'], description: '`contextKeys` items are bare words without `<type>:<id>` form' },
  'ts-unknown-identifier-counted': { rules: ['TS-09'], description: 'An `identifier` that names no subscription of the topic is silently counted as successful and absent from `errors` (found by mutation testing)' },
  'ts-identifier-pair-unchecked': { rules: ['TS-09'], description: 'An entry pairing another subscriber\'s subscription `identifier` with a `subscriberId` removes that subscription and reports nothing (found by mutation testing)' },
  'ts-identifier-pair-refused': { rules: ['TS-01'], description: 'An entry naming a subscription by its `identifier` together with its own `subscriberId` is reported as SUBSCRIPTION_NOT_FOUND and the subscription is kept (found by mutation testing)' },
  'ts-empty-entries-dropped': { rules: ['TS-04'], description: 'Entries naming neither `identifier` nor `subscriberId` are dropped before counting: left out of `meta.totalCount` and `meta.failed` (found by mutation testing)' },
  // LP
  'lp-missing-schema': { rules: ['LP-01'], description: 'Layout preview response has no `schema`' },
  'lp-preview-body-not-string': { rules: ['LP-01'], description: 'Layout preview `result.preview.body` is an object' },
  'lp-wrong-type': { rules: ['LP-02'], description: 'Layout preview `result.type` is `html` instead of `email`' },
  'lp-channel-provider-id-required': { rules: ['LP-01'], description: 'A layout preview whose subscriber channel has no `providerId` (the spec lists it, not as required) is rejected with 422' },
  'lp-subscriber-dropped': { rules: ['LP-03'], description: 'Given preview subscriber fields are replaced by defaults' },
  'lp-optional-fields-required': { rules: ['LP-01'], description: 'A layout preview without `controlValues`, without `previewPayload` or without `previewPayload.subscriber` is rejected with 422' },
  'lp-typed-fields-rejected': { rules: ['LP-03'], description: 'A preview subscriber carrying `isOnline`, `__v`, `topics` or `channels` is rejected with 422, even when well typed' },
  'lp-field-types-unchecked': { rules: ['LP-05'], description: 'Preview subscriber fields other than `isOnline` and `channels` are accepted whatever their type (e.g. `firstName: 5`, `topics: "x"`)' },
  'lp-channel-entries-unchecked': { rules: ['LP-05'], description: 'The entries of a preview subscriber\'s `channels` array are not checked (e.g. `providerId: 5`, `credentials: "x"`)' },
  // EV
  'env-var-list-not-array': { rules: ['EV-01'], description: 'The environment variable list is an object keyed by variable key' },
  'unmasked-secrets': { rules: ['EV-02'], description: 'Secret values are returned in plaintext' },
  'secret-mask-contains-plaintext': { rules: ['EV-02'], description: 'Secret values are returned as `••••<plaintext>`' },
  'non-secret-masked': { rules: ['EV-03'], description: 'Non-secret values are masked too' },
  'env-var-values-single-env': { rules: ['EV-03'], description: 'Only the caller environment\'s value is returned' },
  'search-case-sensitive': { rules: ['EV-04'], description: 'The `search` filter is case-sensitive' },
  'search-prefix-only': { rules: ['EV-04'], description: 'The `search` filter only matches key prefixes' },
  'search-length-unchecked': { rules: ['EV-05'], description: '`search` longer than 256 characters is accepted' },
  'search-limit-off-by-one': { rules: ['EV-05'], description: '`search` of exactly 256 characters is rejected' },
  'search-regex-unescaped': { rules: ['EV-06'], description: '`search` is used as a raw regular expression (metacharacters break it, invalid ones 500)' },
  // ENV
  'environment-bad-type': { rules: ['ENV-01'], description: 'The production environment has `type: "production"`' },
  'foreign-organization-listed': { rules: ['ENV-02'], description: 'A third environment of another organization is listed' },
  'own-environment-missing': { rules: ['ENV-02'], description: 'The caller\'s own environment is not listed' },
  'api-keys-leaked': { rules: ['ENV-03'], description: 'apiKeys are listed on every environment (also for the restricted key)' },
  // PREF
  'pref-global-ignored': { rules: ['PREF-01'], description: 'Global channel updates answer 200 but are not applied' },
  'pref-slug-not-resolved': { rules: ['PREF-02'], description: '`workflowId` given as slug or _id is not resolved (404)' },
  'pref-workflow-update-leaks': { rules: ['PREF-02'], description: 'A workflow-scoped update also changes every other workflow entry' },
  'schedule-dropped': { rules: ['PREF-03'], description: '`schedule` is accepted but not stored or echoed' },
  'schedule-weekly-schedule-required': { rules: ['PREF-03'], description: 'A schedule without `weeklySchedule` (only `isEnabled`) is rejected with 422' },
  'schedule-day-hours-required': { rules: ['PREF-03'], description: 'A weekday without `hours` is rejected with 422' },
  'schedule-hour-strict-form': { rules: ['PREF-03'], description: 'Schedule hours need a two-digit hour and a space before AM/PM (`9:00 AM`, `05:30PM` rejected, which the deployed pattern accepts)' },
  'schedule-24h-accepted': { rules: ['PREF-04'], description: 'Schedule hours are not validated (24-hour and malformed forms accepted)' },
  'schedule-hour-suffix-accepted': { rules: ['PREF-04'], description: 'An hour followed by more text (`09:00 AM EST`) is accepted: the hour pattern is not anchored at its end' },
  'pref-invalid-partially-applied': { rules: ['PREF-04'], description: 'A rejected schedule still applies the `channels` of the same request' },
  'pref-non-boolean-accepted': { rules: ['PREF-06'], description: 'Non-boolean channel values are accepted (coerced by truthiness)' },
  'pref-no-overrides': { rules: ['PREF-07'], description: 'Workflow entries never list subscriber `overrides`' },
  'schedule-cleared-by-update': { rules: ['PREF-03'], description: 'A preference update without `schedule` clears the stored schedule (found by mutation testing)' },
  'pref-channels-email-sms-only': { rules: ['PREF-01', 'PREF-02'], description: 'Channel updates of `in_app`, `push`, `chat` and `tool` are answered 200 but not applied (only `email` and `sms` are)' },
  'pref-context-rejected': { rules: ['PREF-08'], description: 'A preference update carrying the documented `context` is rejected with 422' },
  'pref-context-empty-value-rejected': { rules: ['PREF-08'], description: 'A `context` value that is the empty string (a string) is rejected with 422' },
  'schedule-hour-12-rejected': { rules: ['PREF-03'], description: 'Schedule hours with the hour 12 (`12:00 AM`, `12:30 PM`) are rejected: the hour pattern stops at 11' },
  'schedule-hour-00-accepted': { rules: ['PREF-04'], description: 'Schedule hours with the hour 00 (`00:00 AM`, not a 12-hour time) are accepted' },
  'schedule-weekend-dropped': { rules: ['PREF-03'], description: 'A weekly schedule is stored without `saturday` and `sunday`' },
  // TRIG
  'trigger-wrong-status': { rules: ['TRIG-01'], description: 'A processed trigger reports `status: "queued"` (not in the enum)' },
  'trigger-200': { rules: ['TRIG-01'], description: 'Trigger answers 200 instead of 201' },
  'trigger-missing-transaction-id': { rules: ['TRIG-01'], description: 'Trigger responses omit `transactionId`' },
  'recipient-cap-off': { rules: ['TRIG-02'], description: '101 recipients are accepted' },
  'recipient-cap-off-by-one': { rules: ['TRIG-02'], description: 'Exactly 100 recipients are rejected' },
  'recipient-cap-counts-objects-only': { rules: ['TRIG-02'], description: 'The 100-recipient cap counts subscriber objects only: 101 id strings, or 50 strings and 51 objects, are accepted' },
  'recipient-cap-partial': { rules: ['TRIG-02'], description: 'Over 100 recipients is rejected, but the subscriber objects are upserted first' },
  'recipient-channel-provider-id-required': { rules: ['TRIG-03'], description: 'A recipient object whose channel has the documented shape (credentials, integrationIdentifier) without `providerId` is rejected with 422' },
  'overrides-channel-keys-limited': { rules: ['TRIG-09'], description: '`overrides.channels` naming a channel other than `email` (sms, in_app, push, chat, tool) is rejected with 422' },
  'object-recipients-rejected': { rules: ['TRIG-03'], description: 'Subscriber objects in `to` are rejected with 422' },
  'recipient-channels-rejected': { rules: ['TRIG-03'], description: 'A subscriber object in `to` that carries `channels` (the documented shape) is rejected with 422' },
  'transaction-id-not-deduplicated': { rules: ['TRIG-04'], description: 'A repeated transactionId runs the workflow again' },
  'transaction-id-not-echoed': { rules: ['TRIG-04'], description: 'A given transactionId is replaced by a generated one' },
  'bridge-url-http-allowed': { rules: ['TRIG-05'], description: 'Plain `http:` bridgeUrls are accepted' },
  'bridge-url-loopback-allowed': { rules: ['TRIG-05'], description: 'Loopback bridgeUrls (127.0.0.0/8, localhost) are accepted' },
  'bridge-url-hex-ip-allowed': { rules: ['TRIG-05'], description: 'IP hosts written in hex/octal/decimal form are not normalized and slip through' },
  'bridge-url-private-allowed': { rules: ['TRIG-05'], description: 'RFC 1918 / CGNAT / link-local IPv4 bridgeUrls are accepted' },
  'bridge-url-ipv6-allowed': { rules: ['TRIG-05'], description: 'IPv6 loopback, ULA, link-local and IPv4-mapped bridgeUrls are accepted' },
  'bridge-url-metadata-allowed': { rules: ['TRIG-05'], description: 'Cloud metadata host names (metadata.google.internal, *.internal) are accepted' },
  'bridge-url-credentials-allowed': { rules: ['TRIG-05'], description: 'bridgeUrls with embedded `user:pass@` are accepted' },
  'bridge-url-ip-echoed': { rules: ['TRIG-05'], description: 'The SSRF rejection message repeats the private IP' },
  'bridge-url-rejected-after-run': { rules: ['TRIG-05'], description: 'A bad bridgeUrl is rejected with 400 only after the run (subscribers upserted, transactionId used)' },
  'bridge-url-loopback-only-127-0-0-1': { rules: ['TRIG-05'], description: 'Of 127.0.0.0/8 only 127.0.0.1 is refused as loopback: 127.0.0.2, 127.255.255.254 and the rest go through' },
  'bridge-url-link-local-metadata-only': { rules: ['TRIG-05'], description: 'Of the link-local 169.254.0.0/16 only the metadata address 169.254.169.254 is refused' },
  'bridge-url-ula-fd-only': { rules: ['TRIG-05'], description: 'Of the IPv6 unique-local fc00::/7 only fd00::/8 is refused: fc00::/8 goes through' },
  'bridge-url-localhost-trailing-dot-allowed': { rules: ['TRIG-05'], description: '`localhost.` and names under `.localhost.` (trailing dot) go through: the localhost check does not strip the dot' },
  'payload-validation-off': { rules: ['TRIG-06'], description: 'Trigger payloads are not validated against the workflow payloadSchema' },
  'payload-error-wrong-type': { rules: ['TRIG-06'], description: 'Payload validation errors carry `type: "VALIDATION_ERROR"`' },
  'payload-error-missing-schema': { rules: ['TRIG-06'], description: 'Payload validation errors omit `schema`' },
  'valid-payload-rejected': { rules: ['TRIG-06'], description: 'With validatePayload on, every payload is rejected (even a valid one)' },
  'payload-error-required-field-unnamed': { rules: ['TRIG-06'], description: 'A missing required property is reported with `field` naming the object that lacks it, not the property' },
  'payload-error-value-lost': { rules: ['TRIG-06'], description: '`errors[].value` is null for a violation at the payload\'s root or inside an array' },
  'payload-error-field-as-pointer': { rules: ['TRIG-06'], description: '`errors[].field` is the JSON pointer (`/customer/email`) instead of the dotted path the deployed service gives' },
  'payload-error-first-only': { rules: ['TRIG-06'], description: '`errors[]` lists only the first violation of the payload (Ajv without allErrors)' },
  'unknown-workflow-processed': { rules: ['TRIG-07'], description: 'A trigger for an unknown workflow answers `processed`' },
  'inactive-workflow-processed': { rules: ['TRIG-08'], description: 'A trigger for an inactive workflow answers `processed`' },
  'actor-object-rejected': { rules: ['TRIG-09'], description: 'An `actor` object is rejected with 422' },
  'tenant-object-rejected': { rules: ['TRIG-09'], description: 'A `tenant` object is rejected with 422' },
  'agent-id-null-rejected': { rules: ['TRIG-09'], description: '`agentId: null` is rejected with 422' },
  'context-rejected': { rules: ['TRIG-09'], description: 'A `context` object is rejected with 422' },
  'empty-to-processed': { rules: ['TRIG-10'], description: 'An empty `to` answers `processed`' },
  // Crashes on input only generated requests reach: no suite test sends it, `conformance fuzz` must find it
  'long-step-name-crash': { rules: ['WF-01'], provenBy: 'fuzz', description: 'A workflow with a step `name` over 120 characters crashes the handler (500)' },
  'recipient-data-array-crash': { rules: ['TRIG-01'], provenBy: 'fuzz', description: 'A trigger whose subscriber object in `to` has `data` holding an array of objects crashes the handler (500)' },
  'context-value-object-crash': { rules: ['PREF-01'], provenBy: 'fuzz', description: 'A preference update whose `context` has a value that is not a string crashes the handler (500)' },
  // Drift no rule names: the answers stay schema-valid and every rule holds, only `conformance diff` shows it
  'severity-default-high': { rules: [], provenBy: 'diff', drift: 'create-workflow /severity', description: 'A workflow created without `severity` gets `high` instead of `none`' },
  // VER
  'wrong-version-prefix': { rules: ['VER-01'], description: 'Trigger is served under /v2/events/trigger instead of /v1/events/trigger' },
  'workflows-under-v1': { rules: ['VER-01'], description: 'Workflow creation is served under /v1/workflows instead of /v2/workflows' },
  'regional-broken': { rules: ['VER-02'], description: 'The regional listener answers 404 to every request' },
  // mut-routes slice: gaps the surviving mutants of reference/routes/*.ts showed
  'translation-flag-ignored': { rules: ['WF-02'], description: 'A workflow created with `isTranslationEnabled: true` comes back with false' },
  'partial-preferences-rejected': { rules: ['WF-07'], description: 'Workflow `preferences` without `user`, or a block without `all`, is rejected with 422' },
  'user-preferences-channels-dropped': { rules: ['CLIENT-02'], deployedOnly: true, description: 'A workflow created with a `preferences.user` block without `channels` comes back without `user.channels` (the official client requires it)' },
  'schedule-is-enabled-omitted': { rules: ['CLIENT-02'], deployedOnly: true, description: 'A schedule or weekday sent without `isEnabled` comes back without it (the official client\'s ScheduleDto requires it)' },
  // Found by mutation testing (SSRF guard, validation, auth, errors, rate limiter, router)
  'bridge-url-172-slash-8-blocked': { rules: ['TRIG-01'], description: 'All of 172.0.0.0/8 is blocked as private, not only 172.16.0.0/12: public bridgeUrls such as 172.32.0.1 are rejected (found by mutation testing)' },
  'bridge-url-ipv6-literal-blocked': { rules: ['TRIG-01'], description: 'Every IPv6-literal bridgeUrl is rejected, public ones too (found by mutation testing)' },
  'bridge-url-localhost-subdomain-allowed': { rules: ['TRIG-05'], description: 'Names under .localhost (RFC 6761: loopback, e.g. bridge.localhost) are accepted as bridgeUrl hosts (found by mutation testing)' },
  'bridge-url-partial-credentials-allowed': { rules: ['TRIG-05'], description: 'bridgeUrls with only a user name (`user@`) or only a password (`:pass@`) are accepted; only `user:pass@` is rejected (found by mutation testing)' },
  'bridge-url-ipv6-link-local-allowed': { rules: ['TRIG-05'], description: 'IPv6 link-local bridgeUrls (fe80::/10) are accepted (found by mutation testing)' },
  // Found by mutation testing (reference/routes/events.ts)
  'overrides-parts-required': { rules: ['TRIG-09'], description: 'A trigger whose `overrides` lacks one of the maps `steps`, `channels`, `providers` is rejected with 422 (every part of `overrides` is optional; found by mutation testing)' },
  'overrides-layout-id-rejected': { rules: ['TRIG-09'], description: 'A string `layoutId` in an `overrides` step or in `overrides.channels.email` is rejected with 422 (found by mutation testing: no test named a layout in `overrides`)' },
  'overrides-null-layout-id-rejected': { rules: ['TRIG-09'], deployedOnly: true, description: '`layoutId: null` in an `overrides` step or in `overrides.channels.email` (the official client: removes the layout) is rejected with 422 (found by mutation testing)' },
  'payload-validated-when-disabled': { rules: ['TRIG-01'], description: 'A workflow\'s payloadSchema is enforced even with `validatePayload: false`: a payload violating it gets the payload validation error (found by mutation testing)' },
  // Found by mutation testing (create workflow)
  'workflow-preferences-without-channels-crash': { rules: ['WF-07'], description: 'Workflow `preferences.workflow` holding `all` but no `channels` crashes the handler (500) (found by mutation testing)' },
  'derived-step-id-not-unique': { rules: ['WF-01'], description: 'A step without `stepId` gets the slug of its name even when another step gives that stepId, which is then refused as a duplicate (422) (found by mutation testing)' },
  'step-slug-empty': { rules: ['WF-10'], description: 'Workflow response steps carry `slug` as the empty string (found by mutation testing)' },
  'tags-default-not-empty': { rules: ['WF-02'], description: 'A workflow created without `tags` comes back with the tag `untagged` (found by mutation testing)' },
  'tag-values-unchecked': { rules: ['WF-01', 'CLIENT-02'], description: '`tags` that are not all strings are accepted and echoed as sent, off the response schema and unreadable by the official client (found by mutation testing)' },
  'null-payload-schema-rejected': { rules: ['WF-01'], description: 'A workflow created with `payloadSchema: null` (the spec: object or null) is rejected with 422 (found by mutation testing)' },
  'preference-flags-unchecked': { rules: ['CLIENT-02'], deployedOnly: true, description: 'Workflow preference `all.enabled`/`all.readOnly` that are not booleans are accepted and come back as sent, which the official client cannot read (found by mutation testing)' },
  'empty-step-name-accepted': { rules: ['WF-06'], description: 'A step with `name: ""` is accepted (found by mutation testing)' },
  'agent-without-providers-crash': { rules: ['WF-08'], description: 'A workflow whose `agent` has no `providers` (optional) crashes the handler (500) (found by mutation testing)' },
  // Found by mutation testing (the request pipeline, reference/server.ts)
  'media-type-substring': { rules: ['ERR-07'], description: 'A Content-Type that merely contains `application/json` (`x-application/json`, `application/jsonpath;charset=utf-8`) is read as JSON (found by mutation testing)' },
  'body-first-piece-only': { rules: ['TRIG-01'], description: 'A body that arrives in several pieces (over about 64 KB) is cut to its first piece: a valid trigger with a 200 KB payload gets 400 (found by mutation testing)' },
  'chunked-body-ignored': { rules: ['TRIG-01', 'ERR-05'], description: 'A body sent with `Transfer-Encoding: chunked` (no Content-Length) is read as absent: a valid chunked trigger gets 422, an oversized one is not refused with 413 (found by mutation testing)' },
  'chunked-body-unlimited': { rules: ['ERR-05'], description: 'A chunked body (no Content-Length) is not held to the size limit: a chunked trigger over 512 KB is accepted (found by mutation testing)' },
  'keyed-429-keeps-key': { rules: ['RL-07'], description: 'A keyed request answered 429 keeps its key in flight: sent again with that key after Retry-After it gets 409 instead of being accepted (found by mutation testing)' },
  // Found by mutation testing (auth, errors, router, util, validate, store)
  'idempotency-body-delimiters-ignored': { rules: ['IDEM-05'], description: 'The idempotency fingerprint drops the JSON brackets and commas of the body, so bodies such as `[12]` and `[1,2]` count as the same body: the second is replayed instead of a 422 (found by mutation testing)' },
  'derived-step-id-unslugged': { rules: ['WF-10'], description: 'A stepId derived from a step name keeps every other character as its own "-" (`  Send: now!` → `--send--now-`), outside the slug pattern (found by mutation testing)' },
  'severity-enum-unchecked': { rules: ['WF-11'], deployedOnly: true, description: 'A workflow `severity` outside the enumeration (e.g. `urgent`) is accepted and echoed (found by mutation testing)' },
  'non-boolean-active-echoed': { rules: ['WF-01', 'CLIENT-02'], description: 'A workflow `active` that is not a boolean (e.g. `"yes"`) is accepted and echoed: a 201 outside the workflow response schema, which the official client cannot read (found by mutation testing)' },
  'key-then-garbage-accepted': { rules: ['AUTH-02'], description: 'A valid key followed by a space and more characters (`ApiKey <key> x`) is accepted (found by mutation testing)' },
  'non-string-name-echoed': { rules: ['WF-01', 'CLIENT-02'], description: 'A workflow `name` that is not a string (e.g. `5`) is accepted and echoed: a 201 outside the workflow response schema, which the official client cannot read (found by mutation testing)' },
  'scheme-suffix-accepted': { rules: ['AUTH-03'], description: 'Any scheme that ends in `ApiKey` is taken for `ApiKey` (`X-ApiKey <valid key>` is accepted) (found by mutation testing)' },
  'null-body-crashes': { rules: ['WF-03'], description: 'A request body that is the JSON value `null` crashes the handler: 500 instead of 400/422 (found by mutation testing)' },
  'bridge-url-metadata-short-names-allowed': { rules: ['TRIG-05'], description: 'The metadata host names without a domain, `metadata` (GCP) and `instance-data` (AWS), are accepted as a bridgeUrl host (found by mutation testing)' },
  'bridge-url-internal-names-allowed': { rules: ['TRIG-05'], description: 'A bridgeUrl host under `.internal` outside the four listed metadata names (e.g. AWS `instance-data.ec2.internal`) is accepted (found by mutation testing)' },
  'bridge-url-ipv4-compatible-allowed': { rules: ['TRIG-05'], description: 'An IPv4-compatible IPv6 literal (`[::127.0.0.1]`, `[::10.0.0.1]`) is judged public and accepted as a bridgeUrl (found by mutation testing)' },
  'body-at-limit-refused': { rules: ['TRIG-01'], description: 'A trigger body that declares exactly the 512 KiB limit (524,288 bytes) in its Content-Length is refused with 413, though it is not over the limit (found by mutation testing)' },
  'chunked-body-at-limit-refused': { rules: ['TRIG-01'], description: 'A trigger body whose bytes reach exactly the 512 KiB limit is refused with 413 as they arrive, with or without a Content-Length (found by mutation testing)' },
  'channel-without-credentials-crash': { rules: ['TRIG-03'], description: 'A trigger whose recipient object has a channel without `credentials` crashes the handler: 500 (found by mutation testing)' },
  'trigger-recipient-replaces-subscriber': { rules: ['PREF-01'], description: 'A trigger naming an existing subscriber as an object replaces the stored subscriber by a fresh record: its stored channel preferences are back to the defaults (found by mutation testing)' },
  'invalid-payload-schema-accepted': { rules: ['TRIG-01'], description: 'A workflow whose `payloadSchema` is not a valid JSON Schema (`{type: "not-a-type"}`) is created with `validatePayload: true`, and every valid trigger of it then answers 500 (found by mutation testing)' },
  'duplicate-step-id-accepted': { rules: ['WF-06'], description: 'Two steps giving the same `stepId` are accepted and stored with it, so the workflow has two steps of one identifier (found by mutation testing)' },
  'derived-step-id-empty': { rules: ['WF-10'], description: 'A step whose name has no ASCII letter or digit (e.g. `通知`) gets the derived stepId `""`, outside the slug pattern (found by mutation testing)' },
  'agent-identifier-pattern-unchecked': { rules: ['WF-08'], description: 'A workflow `agent.identifier` outside the slug pattern (`not a slug!`) is accepted and echoed (found by mutation testing)' },
  'bodyless-request-refused': { rules: ['LP-01'], description: 'A request without a body is refused with 400 instead of being read as `{}`: a layout preview sent without a body fails (found by mutation testing)' },
  // Found by comparing with Schemathesis on the published OpenAPI document: what the deployed contract allows
  'nullable-preferences-refused': { rules: ['CLIENT-04'], deployedOnly: true, description: 'A workflow created with `preferences.user: null` or `preferences.workflow: null` (nullable in the official client\'s models; a workflow read back carries `user: null`) is rejected with 422' },
  'ts-empty-subscriber-id-refused': { rules: ['TS-06', 'CLIENT-04'], description: 'An empty string in the deprecated `subscriberIds` is rejected with 422 "each value in subscriberIds must be a string" instead of failing as an unknown subscriber' },
  'ts-string-entries-refused': { rules: ['CLIENT-04'], deployedOnly: true, description: 'A `subscriptions` entry that is a plain subscriber id (a string, as the official client\'s model allows) is rejected with 422 when deleting topic subscriptions' },
  'method-not-allowed-no-allow': { rules: ['ERR-04'], description: 'A 405 carries no `Allow` header naming the path\'s methods (RFC 9110)' },
} as const satisfies Record<string, Fault>;

interface Fault {
  rules: readonly RuleId[];
  description: string;
  /** How the fault proof shows the fault is caught: by the rules' suites (default), `conformance fuzz` or `conformance diff`. */
  provenBy?: 'fuzz' | 'diff';
  /** `diff` faults: the `<operation> <path>` where `conformance diff` must show a difference. */
  drift?: string;
  /** Breaks only what the deployed contract adds to the spec: the proof also requires that no MUST rule fails under it. */
  deployedOnly?: true;
  /** Shows only over time: the proof runs its rules' tests with the long checks on (`conformance run --long-checks`). */
  longChecks?: true;
}

export type FaultName = keyof typeof FAULTS;

export function provenBy(name: FaultName): 'suites' | 'fuzz' | 'diff' {
  return (FAULTS[name] as Fault).provenBy ?? 'suites';
}

/** Whether only the long checks (tests that wait on the clock) can show the fault. */
export function needsLongChecks(name: FaultName): boolean {
  return (FAULTS[name] as Fault).longChecks === true;
}

/** The `<operation> <path>` a drift fault changes (diff faults only). */
export function driftOf(name: FaultName): string | undefined {
  return (FAULTS[name] as Fault).drift;
}

export function isFaultName(s: string): s is FaultName {
  return Object.prototype.hasOwnProperty.call(FAULTS, s);
}

/** Fast membership view of the active faults. */
export type FaultSet = ReadonlySet<FaultName>;

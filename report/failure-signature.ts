// A failure's signature: the check that failed, the field or header, the status — never the test. Failures with
// one signature are one root cause. The harness's own checks have fixed wordings, recognized here; any other
// assertion is keyed by its wording with the values of one test (ids, URLs, numbers, quoted values) masked.

export interface Signature {
  key: string;
  summary: string;
  /** A value seen with this signature (e.g. the status that came back), listed in the root cause's summary. */
  observed?: string;
  /** The part of the message this signature was read from. */
  excerpt: string;
}

/** Bodies of these schemas are error bodies: a common field missing there is the same fault as in any error body. */
const ERROR_SCHEMAS = new Set(['ErrorDto', 'ValidationErrorDto', 'PayloadValidationErrorDto', 'RateLimitExceededBody']);
const COMMON_ERROR_FIELDS = new Set(['statusCode', 'timestamp', 'path', 'message', 'errorId', 'ctx']);
const SCHEMA_VIOLATION = /\b([A-Z][A-Za-z]*(?:Dto|Body|Header))(?:\[\])?: (\/\S*) (.+?) \((?:missing|got )/g;
/** The passive checks prefix each violation with the test whose traffic showed it; every test name ends in its rule IDs. */
const PASSIVE_PREFIX = /^in ".*?\]": /;

/** `passive`: the message of a rule's check over all traffic (blocks of violations), else a test's failure message. */
export function signaturesOf(message: string, passive: boolean): Signature[] {
  const excerpts = passive ? message.split('\n\n').filter((b) => b.trim()).map((b) => b.replace(PASSIVE_PREFIX, '')) : [message.split('\n\nRule: ')[0]!];
  const found = new Map<string, Signature>();
  for (const excerpt of excerpts) {
    // Only the problem lines: indented lines are the exchange (request, body, reproducer).
    const lines = excerpt.split('\n').filter((line) => line.trim() && !/^\s/.test(line));
    const signatures = [...schemaSignatures(lines, excerpt), ...clientSignatures(lines, excerpt), ...lines.flatMap((line) => lineSignature(line, excerpt) ?? [])];
    if (signatures.length === 0) signatures.push(fallback(lines[0] ?? excerpt, excerpt));
    for (const s of signatures) if (!found.has(s.key + (s.observed ?? ''))) found.set(s.key + (s.observed ?? ''), s);
  }
  return [...found.values()];
}

function errorBodyField(field: string, missing: boolean, excerpt: string): Signature {
  const bodies = field === 'errors' ? '422 bodies' : 'error bodies';
  return missing
    ? { key: `error-body:${field}:missing`, summary: `${bodies} lack \`${field}\``, excerpt }
    : { key: `error-body:${field}:malformed`, summary: `${bodies} carry a malformed \`${field}\``, excerpt };
}

function header(name: string, problem: string, summary: string, excerpt: string): Signature {
  return { key: `header:${name}:${problem}`, summary, excerpt };
}

function status(expected: string, got: string, excerpt: string): Signature {
  return { key: `status:${expected}`, summary: `a status other than the required ${expected}`, observed: got, excerpt };
}

/** Schema violations of one message; violations of the whole body ("/") are dropped when a field is named (anyOf noise). */
function schemaSignatures(lines: string[], excerpt: string): Signature[] {
  const violations = lines.flatMap((line) => [...line.matchAll(SCHEMA_VIOLATION)].map((m) => ({ schema: m[1]!, pointer: m[2]!, problem: m[3]! })));
  const specific = violations.some((v) => v.pointer !== '/') ? violations.filter((v) => v.pointer !== '/') : violations;
  return specific.map(({ schema, pointer, problem }) => {
    // Array indices are not part of the field; an item of a list body is the item's field.
    const field = pointer.slice(1).replace(/\/\d+(?=\/|$)/g, '/*').replace(/^\d+(?:\/|$)/, '') || 'body';
    const missing = problem === 'is required';
    const common = COMMON_ERROR_FIELDS.has(field) || (schema === 'ValidationErrorDto' && field.startsWith('errors'));
    if (ERROR_SCHEMAS.has(schema) && common) return errorBodyField(field.split('/')[0]!, missing, excerpt);
    const what = missing ? 'missing' : problem.replace(/^(must match pattern) ".*"$/, '$1');
    return { key: `schema:${schema}:${field}:${what}`, summary: missing ? `${schema} answers lack \`${field}\`` : `${schema}: \`${field}\` ${what}`, excerpt };
  });
}

const CLIENT_ERROR_MODELS = new Set(['ErrorDto', 'ValidationErrorDto', 'PayloadValidationExceptionDto']);
/** harness/checks/client-checks.ts (CLIENT-02/03): "<status> answer cannot be read by the official client as <Model>: <path>: <problem>; …". */
const CLIENT_READING = /answer cannot be read by the official client as ([A-Za-z]+): (.+)$/;

/** The official client's reading: a common error field it misses is the same fault as the error-body checks see. */
function clientSignatures(lines: string[], excerpt: string): Signature[] {
  return lines.flatMap((line) => {
    const m = CLIENT_READING.exec(line);
    if (!m) return [];
    const model = m[1]!;
    return m[2]!.split('; ').flatMap((issue) => {
      const [path, ...rest] = issue.split(': ');
      if (!path || rest.length === 0) return [];
      const problem = rest.join(': ');
      // Array indices are not part of the field.
      const field = path.replace(/\.\d+(?=\.|$)/g, '.*');
      if (CLIENT_ERROR_MODELS.has(model) && COMMON_ERROR_FIELDS.has(field)) return [errorBodyField(field, problem === 'Required', excerpt)];
      return [{ key: `client:${model}:${field}:${problem}`, summary: `the official client cannot read ${model}: \`${field}\` ${problem}`, excerpt }];
    });
  });
}

function lineSignature(line: string, excerpt: string): Signature | undefined {
  let m: RegExpExecArray | null;
  // harness/checks/error-body.ts
  if ((m = /error body (statusCode|timestamp|path): expected (.+?) to /.exec(line))) return errorBodyField(m[1]!, m[2] === 'undefined', excerpt);
  if (/expected the common error body \(JSON object\)|\b422 body is not a JSON object/.test(line)) return { key: 'error-body:body:not-json', summary: 'error answers carry no JSON error body', excerpt };
  // harness/checks/passive-checks.ts
  if ((m = /(?:common error body|common fields): (statusCode|timestamp|path) is (.+?), expected /.exec(line))) return errorBodyField(m[1]!, m[2] === 'undefined', excerpt);
  if (/\b422 body has no "errors" map|\b422 errors\["/.test(line)) return errorBodyField('errors', false, excerpt);
  if (/\b500 response carries no errorId/.test(line)) return { key: 'error-body:errorId:missing', summary: '500 answers lack `errorId`', excerpt };
  if (/JSON body served with Content-Type /.test(line)) return header('content-type', 'not-json', 'JSON bodies are not served as `application/json`', excerpt);
  if ((m = /\b\d{3} response lacks ((?:ratelimit-[a-z]+(?:, )?)+)$/.exec(line))) return header(m[1]!, 'missing', `answers lack ${m[1]!.split(', ').map((h) => `\`${h}\``).join(', ')}`, excerpt);
  if ((m = /\b(ratelimit-limit|ratelimit-remaining|ratelimit-reset|retry-after) is ".*", not a non-negative integer/.exec(line))) return header(m[1]!, 'not-integer', `\`${m[1]}\` is not a non-negative integer`, excerpt);
  if (/RateLimit-Policy (?:is missing|".*?" (?:does not start|has a malformed|lacks)|".*?": .+ is not an integer)/.test(line)) return header('ratelimit-policy', 'malformed', '`RateLimit-Policy` is not the structured form', excerpt);
  if (/RateLimit-Remaining \d+ exceeds the policy's burst/.test(line)) return header('ratelimit-remaining', 'exceeds-burst', "`RateLimit-Remaining` exceeds the policy's burst", excerpt);
  if (/\b503 response carries no integer Retry-After/.test(line)) return header('retry-after', 'missing-on-503', '503 answers lack an integer `Retry-After`', excerpt);
  if (/request sent Idempotency-Key ".*", response carries /.test(line)) return header('idempotency-key', 'not-echoed', 'answers do not echo `Idempotency-Key`', excerpt);
  // fixtures/conformance.ts: a transport fault that repeated on one request (harness/conformance/transport-retry.ts)
  if ((m = /the target (resets the connection|refuses the connection|sends no response in time) on ([A-Z]+ \S+) every time it is sent/.exec(line))) {
    return { key: `transport:${m[1]!.split(' ')[0]}:${m[2]}`, summary: `the target ${m[1]} on ${m[2]}`, excerpt };
  }
  // Status assertions, in the wordings expect() and the suites use.
  if ((m = /expected HTTP (\d{3}), got (\d{3})/.exec(line))) return status(m[1]!, m[2]!, excerpt);
  if ((m = /expected ([2-5]\d\d) to be ([2-5]\d\d) \/\/ Object\.is equality$/.exec(line))) return status(m[2]!, m[1]!, excerpt);
  if ((m = /expected \[ ((?:\d{3}, )*\d{3}) \] to include (\d{3})$/.exec(line))) return status(m[1]!.split(', ').sort().join(' or '), m[2]!, excerpt);
  if ((m = /expected ([2-5]\d\d) to be greater than or equal to 400$/.exec(line))) return status('4xx or 5xx', m[1]!, excerpt);
  if ((m = /expected ([2-5]\d\d) to be less than 300$/.exec(line))) return status('2xx', m[1]!, excerpt);
  if ((m = /\(2xx\)[^:]*?, got ([2-5]\d\d)\b/.exec(line))) return status('2xx', m[1]!, excerpt);
  // fixtures/trigger/trigger-effects.ts: whether a subscriber exists
  if ((m = /answered ([2-5]\d\d); expected (\d{3}) \(exists\) or (\d{3}) \(does not\)/.exec(line))) return status(`${m[2]} or ${m[3]}`, m[1]!, excerpt);
  return undefined;
}

/** Any other assertion: its wording with the values of one test masked, so the same check in other tests matches. */
function fallback(line: string, excerpt: string): Signature {
  const masked = line
    .replace(/ \/\/ Object\.is equality$/, '')
    .replace(/\{.*\}/g, '{…}')
    .replace(/\[.*\]/g, '[…]')
    .replace(/https?:\/\/\S+/g, '<url>')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/\bcft-[0-9a-f]{6}[\w.-]*/g, '<id>')
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
    .replace(/\b[0-9a-f]{24}\b/g, '<id>')
    .replace(/\b\d+(?:\.\d+)?\b/g, 'N');
  const summary = line.replace(/ \/\/ Object\.is equality$/, '');
  return { key: `assertion:${masked}`, summary: summary.length > 200 ? `${summary.slice(0, 199)}…` : summary, excerpt };
}

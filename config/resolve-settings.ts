// The one chain that turns defaults, a config file, environment variables and CLI flags into validated Settings.
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { isRuleId } from '../requirements/index.ts';
import { ConfigError } from './config-error.ts';
import { CONFIG_FILE_ENV_VAR, ENV_VARS, PROXY_ENV_VARS } from './env-vars.ts';
import { checkNetwork, proxyUrl } from './network-settings.ts';
import { DEFAULT_SETTINGS, type Settings } from './settings.ts';
import { settingsSchema } from './settings-schema.ts';

type Json = Record<string, unknown>;

export interface SettingsSources {
  /** Settings from command-line flags, as dotted paths (`target.apiKey`) to values. */
  flags?: Record<string, unknown>;
  /** Path of a YAML or JSON config file (the `--config` flag). */
  configFile?: string;
  /** The process environment; passed in so that nothing else reads process.env. */
  env?: Record<string, string | undefined>;
}

// Compiled on first use, not at load: `--version` and `reference` import this module and never validate.
let validateSettings: ValidateFunction | undefined;

export function resolveSettings(sources: SettingsSources): Settings {
  const env = sources.env ?? {};
  const merged: Json = structuredClone(DEFAULT_SETTINGS) as unknown as Json;
  const file = sources.configFile ?? env[CONFIG_FILE_ENV_VAR];
  if (file) deepMerge(merged, readConfigFile(file, env), '');
  for (const [name, path] of Object.entries(ENV_VARS)) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') setPath(merged, path, coerce(raw, path, name));
  }
  for (const [path, names] of Object.entries(PROXY_ENV_VARS)) {
    const name = names.find((n) => env[n] !== undefined && env[n] !== '');
    if (name) setPath(merged, path, path === 'network.noProxy' ? env[name] : proxyUrl(env[name]!, name));
  }
  for (const [path, value] of Object.entries(sources.flags ?? {})) {
    if (value !== undefined) setPath(merged, path, value);
  }
  assertValid(merged, file ? `config file ${file}` : 'settings');
  const settings = merged as unknown as Settings;
  checkConsistency(settings);
  return settings;
}

function readConfigFile(file: string, env: Record<string, string | undefined>): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError('--config', `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const substituted = text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const value = env[name];
    if (value === undefined) throw new ConfigError(`config file ${file}`, `\${${name}} is not set in the environment`);
    return value;
  });
  let parsed: unknown;
  try {
    parsed = file.endsWith('.json') ? JSON.parse(substituted) : parseYaml(substituted);
  } catch (error) {
    throw new ConfigError(`config file ${file}`, `not valid ${file.endsWith('.json') ? 'JSON' : 'YAML'}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`config file ${file}`, 'must be a mapping of settings');
  assertValid(parsed, `config file ${file}`);
  return parsed as Json;
}

function assertValid(data: unknown, source: string): void {
  validateSettings ??= new Ajv({ allErrors: true, strict: true }).compile(settingsSchema);
  if (validateSettings(data)) return;
  const error = validateSettings.errors![0]!;
  const at = error.instancePath.slice(1).replaceAll('/', '.');
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    throw new ConfigError(at ? `${at}.${extra}` : extra, `unknown setting (in ${source})`);
  }
  throw new ConfigError(at || source, `${error.message ?? 'is invalid'} (in ${source})`);
}

function checkConsistency(settings: Settings): void {
  const { target, reference, run } = settings;
  if (target.baseUrl && target.image) throw new ConfigError('target.image', 'give either a running target (--target) or an image to start (--target-image), not both');
  if ((target.baseUrl || target.image) && !target.apiKey) {
    throw new ConfigError('target.apiKey', 'required when a target is given (--api-key, CONFORMANCE_API_KEY or target.apiKey in the config file)');
  }
  if (!target.baseUrl && !target.image && (target.apiKey || target.secondaryApiKey || target.restrictedApiKey)) {
    throw new ConfigError('target.baseUrl', 'API keys were given but no target (--target or CONFORMANCE_TARGET); without a target the embedded reference runs with its own keys');
  }
  if (target.regionalBaseUrl && settings.features.regionalEndpoint === false) {
    throw new ConfigError('features.regionalEndpoint', 'declared off (--no-regional-endpoint), yet a regional base address is given (--regional-target): give one or the other');
  }
  if ((target.baseUrl || target.image) && reference.faults.length > 0) {
    throw new ConfigError('reference.faults', 'faults only apply to the embedded reference, not to --target');
  }
  for (const raw of settings.bridge.acceptableUrls ?? []) {
    const problem = notAnHttpsUrl(raw);
    if (problem) throw new ConfigError('bridge.acceptableUrls', `"${raw}" ${problem}: list the public https bridgeUrls the target accepts`);
  }
  checkNetwork(settings.network);
  const unknown = run.rules.filter((id) => !isRuleId(id));
  if (unknown.length > 0) throw new ConfigError('run.rules', `unknown rule ID(s): ${unknown.join(', ')}`);
}

function notAnHttpsUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  return url.protocol === 'https:' ? undefined : 'is not an https URL';
}

function coerce(raw: string, path: string, name: string): unknown {
  if (path.startsWith('features.')) {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    throw new ConfigError(name, `expected true or false, got "${raw}"`);
  }
  if (path.startsWith('timeouts.') || path.startsWith('limits.') || path === 'run.workers' || path === 'run.transportRetries') {
    const n = Number(raw);
    if (!Number.isInteger(n)) throw new ConfigError(name, `expected a whole number, got "${raw}"`);
    return n;
  }
  return raw;
}

function setPath(target: Json, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part] as Json;
  }
  node[parts.at(-1)!] = value;
}

function deepMerge(into: Json, from: Json, prefix: string): void {
  for (const [key, value] of Object.entries(from)) {
    const existing = into[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && existing && typeof existing === 'object' && !Array.isArray(existing)) {
      deepMerge(existing as Json, value as Json, `${prefix}${key}.`);
    } else {
      into[key] = value;
    }
  }
}

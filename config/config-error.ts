/** A problem with the user's settings: always names the setting, never carries a stack trace to the user. */
export class ConfigError extends Error {
  constructor(
    readonly setting: string,
    detail: string,
  ) {
    super(`${setting}: ${detail}`);
    this.name = 'ConfigError';
  }
}

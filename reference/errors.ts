// Error values thrown by handlers and turned into wire bodies by server.ts.

export interface FieldError {
  messages: string[];
  value?: unknown;
}

/** Any HTTP error a handler wants to answer with (common error body, plus optional extras). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** 422 with the ValidationErrorDto `errors` map. */
export class ValidationError extends HttpError {
  constructor(readonly errors: Record<string, FieldError>) {
    super(422, 'Validation failed');
  }
}

/** Collects field errors so a handler can report every bad field at once. */
export class FieldErrors {
  readonly errors: Record<string, FieldError> = {};
  add(field: string, message: string, value?: unknown): void {
    const existing = this.errors[field];
    if (existing) existing.messages.push(message);
    else this.errors[field] = value === undefined ? { messages: [message] } : { messages: [message], value };
  }
  /** Records why `value` is not an array of at most `max` items; true when it is one. */
  arrayOfAtMost(field: string, value: unknown, max: number): value is unknown[] {
    if (!Array.isArray(value)) this.add(field, `${field} must be an array`, value);
    else if (value.length > max) this.add(field, `${field} must contain no more than ${max} elements`);
    else return true;
    return false;
  }
  get any(): boolean {
    for (const _ in this.errors) return true;
    return false;
  }
  throwIfAny(): void {
    if (this.any) throw new ValidationError(this.errors);
  }
}

export const notFound = (what: string): HttpError => new HttpError(404, `${what} not found`);

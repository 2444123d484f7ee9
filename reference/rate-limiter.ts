// Variable-cost token buckets, one per (environment, category): O(1) per request, no timers.

export type Category = 'trigger' | 'configuration' | 'global';

export interface RateLimitConfig {
  rps: Record<Category, number>;
  windowSeconds: number;
  /** Faults that change the arithmetic or the header text. */
  remainingNotDecremented?: boolean;
  fractionalReset?: boolean;
  resetZeroWhenAccepted?: boolean;
  /** Retry-After in milliseconds instead of seconds. */
  retryAfterMs?: boolean;
  /** RateLimit-Reset as the epoch second the bucket is refilled at, instead of seconds to wait. */
  resetAbsolute?: boolean;
  malformedPolicy?: boolean;
  /** RateLimit-Policy in the IETF structured form `"<category>";q=<limit>;w=<seconds>` (allowed by RL-02). */
  ietfPolicy?: boolean;
  absoluteReset?: boolean;
  retryAfterMilliseconds?: boolean;
  remainingOneHigh?: boolean;
  sharedBuckets?: boolean;
  /** The burst over the window's limit, as a fraction (the deployed plans: 0.1). */
  burstAllowance?: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  headers: Record<string, string>;
  /** Seconds until a request of this cost is acceptable (Retry-After on 429). */
  retryAfter: string;
}

/** A continuously refilled bucket; capacity = burst, refill = rps tokens per second. */
export class TokenBucket {
  tokens: number;
  private last: number;
  constructor(
    readonly capacity: number,
    readonly ratePerSecond: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.last = now;
  }

  refill(now: number): void {
    if (now > this.last) {
      this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) * this.ratePerSecond) / 1000);
      this.last = now;
    }
  }

  /** Takes `cost` tokens if available. */
  tryTake(cost: number, now: number): boolean {
    this.refill(now);
    if (this.tokens >= cost) {
      this.tokens -= cost;
      return true;
    }
    return false;
  }

  /** Seconds (fractional) until `cost` tokens are available; 0 when they already are. */
  secondsUntil(cost: number): number {
    return this.tokens >= cost ? 0 : (cost - this.tokens) / this.ratePerSecond;
  }
}

interface CategoryPolicy {
  limit: number;
  burst: number;
  rps: number;
  policySingle: string;
  policyBulk: string;
}

export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly policies: Record<Category, CategoryPolicy>;

  constructor(private readonly config: RateLimitConfig) {
    const w = config.windowSeconds;
    const make = (category: Category): CategoryPolicy => {
      const rps = config.rps[category];
      const limit = Math.round(rps * w);
      const burst = Math.floor(limit * (1 + (config.burstAllowance ?? 0.1)));
      const base = config.malformedPolicy
        ? `limit=${limit}, window=${w}s`
        : config.ietfPolicy
          ? `"${category}";q=${limit};w=${w}`
          : `${limit};w=${w};burst=${burst};comment="token bucket";category="${category}"`;
      const whole = config.malformedPolicy || config.ietfPolicy;
      return {
        limit,
        burst,
        rps,
        policySingle: whole ? base : `${base};cost="single";serviceLevel="team"`,
        policyBulk: whole ? base : `${base};cost="bulk";serviceLevel="team"`,
      };
    };
    this.policies = { trigger: make('trigger'), configuration: make('configuration'), global: make('global') };
  }

  policy(category: Category): Readonly<CategoryPolicy> {
    return this.policies[category];
  }

  private bucket(envId: string, category: Category, now: number): TokenBucket {
    // why: the shared-buckets fault collapses the category out of the key
    // RL-09: one bucket per environment and category
    const key = this.config.sharedBuckets ? envId : envId + ':' + category;
    let b = this.buckets.get(key);
    if (!b) {
      const p = this.policies[this.config.sharedBuckets ? 'trigger' : category];
      b = new TokenBucket(p.burst, p.rps, now);
      this.buckets.set(key, b);
    }
    return b;
  }

  /** Consumes `cost` tokens (when available) and returns the headers to send. */
  consume(envId: string, category: Category, cost: number, bulk: boolean, now = Date.now()): RateLimitDecision {
    const b = this.bucket(envId, category, now);
    const allowed = b.tryTake(cost, now);
    return this.decision(b, category, cost, bulk, allowed);
  }

  /** Headers describing the bucket without taking anything (replays, 405s, body errors). */
  peek(envId: string, category: Category, cost: number, bulk: boolean, now = Date.now()): RateLimitDecision {
    const b = this.bucket(envId, category, now);
    b.refill(now);
    return this.decision(b, category, cost, bulk, true);
  }

  private decision(b: TokenBucket, category: Category, cost: number, bulk: boolean, allowed: boolean): RateLimitDecision {
    const d = this.secondsDecision(b, category, cost, bulk, allowed);
    // why: faults `retry-after-in-ms` and `reset-absolute-time` write a wait in another unit
    if (this.config.retryAfterMs) d.retryAfter = String(Number(d.retryAfter) * 1000);
    if (this.config.resetAbsolute) d.headers['RateLimit-Reset'] = String(Math.floor(Date.now() / 1000) + Number(d.headers['RateLimit-Reset']));
    return d;
  }

  private secondsDecision(b: TokenBucket, category: Category, cost: number, bulk: boolean, allowed: boolean): RateLimitDecision {
    const p = this.policies[category];
    // RL-07: Reset and Retry-After are the seconds until this cost is refilled, rounded up, so waiting them is enough
    const wait = b.secondsUntil(cost);
    let reset: string;
    if (this.config.fractionalReset) reset = (wait === 0 ? 0.42 : wait + 0.001).toFixed(3);
    // why: fault `reset-zero-when-accepted` says 0 on every accepted response, whatever the bucket still holds
    else reset = String(allowed ? (this.config.resetZeroWhenAccepted ? 0 : Math.ceil(wait)) : Math.max(1, Math.ceil(wait)));
    // why: faults `absolute-reset` (the Unix time of the refill) and `retry-after-milliseconds` (the 429's wait in ms)
    if (this.config.absoluteReset) reset = String(Math.ceil(Date.now() / 1000 + Number(reset)));
    const retryAfter = this.config.retryAfterMilliseconds ? String(Number(reset) * 1000) : reset;
    const tokens = Math.floor(b.tokens) + (this.config.remainingOneHigh ? 1 : 0);
    const remaining = this.config.remainingNotDecremented ? p.burst : Math.min(p.burst, Math.max(0, tokens));
    return {
      allowed,
      retryAfter,
      headers: {
        'RateLimit-Limit': String(p.limit),
        'RateLimit-Remaining': String(remaining),
        'RateLimit-Reset': reset,
        'RateLimit-Policy': bulk ? p.policyBulk : p.policySingle,
      },
    };
  }
}

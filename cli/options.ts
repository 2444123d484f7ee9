// Parsers for option values, so bad input is a usage error naming the flag.
import { InvalidArgumentError } from 'commander';

export function integerOption(flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (raw: string): number => {
    // decimal digits only: Number() would read "" as 0 and "0x10" as 16
    const value = /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) throw new InvalidArgumentError(`${flag} takes a whole number from ${min} to ${max} in decimal digits, got "${raw}"`);
    return value;
  };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function commaList(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/**
 * Typed reading of environment variables, for each app's `load<App>Config(env)`: a variable unset or blank takes
 * its default, anything else must parse and be in range, else start-up stops with a `ConfigError` naming the
 * variable, the rule and the value given.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A TCP port, 0 (any free port) to 65535. */
export function envPort(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return envInteger(env, name, fallback, (value) => value >= 0 && value <= 65535, 'a port number (0-65535)');
}

/** An integer of at least 1 (counts, limits, intervals that cannot be off). */
export function envPositiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return envInteger(env, name, fallback, (value) => value > 0, 'a positive integer');
}

/** An integer of at least 0 (intervals where 0 turns a schedule off, stocks). */
export function envNonNegativeInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  return envInteger(env, name, fallback, (value) => value >= 0, 'a non-negative integer');
}

/** An integer of at least `min`. */
export function envIntAtLeast(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  return envInteger(env, name, fallback, (value) => value >= min, `an integer >= ${min}`);
}

/** An integer from `min` to `max`, both included. */
export function envIntBetween(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  return envInteger(
    env,
    name,
    fallback,
    (value) => value >= min && value <= max,
    `an integer between ${min} and ${max}`,
  );
}

function envInteger(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  inRange: (value: number) => boolean,
  rule: string,
): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || !inRange(value)) throw new ConfigError(`${name} must be ${rule} (got "${raw}")`);
  return value;
}

/**
 * The declaration of each environment variable a service reads: its name, its default and what it means. Each app's
 * `src/config/variables.ts` declares its own, and its config module takes the defaults from there; the variable table of
 * its README is generated from the same declarations (`node tools/docs/env-tables.mjs --write`, checked by `npm test`).
 */
export interface EnvVariable {
  readonly name: string;
  /** The value taken when the variable is unset or blank; none when unset means "off" or "not configured". */
  readonly default?: number | string;
  /** The default as the README says it, when it is not just the value (`required in production; ...`). */
  readonly shown?: string;
  /** What it does, in the README's words (Markdown). */
  readonly meaning: string;
}

type Declarations = Record<string, Omit<EnvVariable, 'name'>>;

/** Declares variables by name: `defineEnvVariables({ PORT: { default: 3000, meaning: '...' } }).PORT.default`. */
export function defineEnvVariables<const D extends Declarations>(
  declarations: D,
): { readonly [N in keyof D & string]: D[N] & { readonly name: N } } {
  return Object.fromEntries(
    Object.entries(declarations).map(([name, declaration]) => [name, Object.freeze({ name, ...declaration })]),
  ) as { readonly [N in keyof D & string]: D[N] & { readonly name: N } };
}

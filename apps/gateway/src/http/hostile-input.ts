/**
 * Input no route can use, refused once at the edge for every route of both servers, before validation, guards or
 * handlers see it (docs/adr/0055-the-gateway-edge.md):
 * - a NUL character (U+0000): PostgreSQL text cannot hold one, so it failed as a 500 deep in a service;
 * - an unpaired UTF-16 surrogate (`"\ud800"` in JSON): not Unicode, it crashed validators and cannot be stored;
 * - JSON nested deeper than MAX_JSON_DEPTH: validation recursed over it until the stack overflowed.
 */

/** No body of this API nests more than 3 levels; 32 leaves room without letting recursion grow unbounded. */
export const MAX_JSON_DEPTH = 32;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether JSON text opens more than `max` arrays or objects inside each other. A linear scan of the text (strings
 * skipped), so it runs before `JSON.parse` and costs nothing per level.
 */
export function jsonNestingExceeds(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/** Why a text cannot be accepted, or undefined when it can. */
export function textProblem(text: string): string | undefined {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000), which no field accepts';
  if (UNPAIRED_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate, which is not valid Unicode';
  return undefined;
}

/** Where an unusable text was found (`items[2].name`; empty for the whole value) and what is wrong with it. */
export interface UnusableText {
  where: string;
  problem: string;
}

/**
 * The first unusable text in a parsed JSON value (object keys included). Walks at most MAX_JSON_DEPTH levels
 * (bodies deeper than that were refused before they were parsed).
 */
export function findUnusableText(value: unknown, where = '', depth = 0): UnusableText | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { where, problem } : undefined;
  }
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i += 1) {
      const found = findUnusableText(value[i], `${where}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    if (keyProblem) return { where, problem: `has a field name that ${keyProblem}` };
    const found = findUnusableText(item, where ? `${where}.${key}` : key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** The 400 message for an unusable text in a request body. */
export function describeUnusableBodyText({ where, problem }: UnusableText): string {
  return `${where ? `The body field ${where}` : 'The request body'} ${problem}.`;
}

/**
 * The 400 message for the first unusable text among a request's path parameters and query values (flat string
 * maps), or undefined when they are all usable.
 */
export function describeUnusableParameter(params: unknown, query: unknown): string | undefined {
  for (const [kind, values] of [
    ['path parameter', params],
    ['query parameter', query],
  ] as const) {
    if (values === null || typeof values !== 'object') continue;
    for (const [name, value] of Object.entries(values)) {
      // A wildcard route (the not-found handler, static files) names its parameter `*`.
      const subject = kind === 'path parameter' && name === '*' ? 'The URL path' : `The ${kind} ${name}`;
      const nameProblem = textProblem(name);
      if (nameProblem) return `A ${kind} name ${nameProblem}.`;
      for (const item of Array.isArray(value) ? value : [value]) {
        const problem = typeof item === 'string' ? textProblem(item) : undefined;
        if (problem) return `${subject} ${problem}.`;
      }
    }
  }
  return undefined;
}

/**
 * `livemode` on every object the public API answers an API key with (docs/adr/0087-test-mode.md): `false` for a test
 * key's, `true` for a live key's. The mode is the account's (a test key acts for the account's test twin), so it is
 * true of every object in the answer: the answer itself and each item of a list's `data`.
 */

/**
 * The answer with `livemode` on it and on each object of its `data` list, copied (the gateway's interceptor: the
 * answer may be shared); anything else (bytes, none) as it is.
 */
export function withLivemode(body: unknown, livemode: boolean): unknown {
  if (!isPlainObject(body)) return body;
  const marked: Record<string, unknown> = { ...body, livemode };
  if (Array.isArray(body.data))
    marked.data = body.data.map((item: unknown) => (isPlainObject(item) ? { ...item, livemode } : item));
  return marked;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

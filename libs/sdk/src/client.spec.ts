import { createSwitchboardClient, retryAfterMs } from './client';
import { paginate, SwitchboardError } from './pagination';

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

describe('createSwitchboardClient', () => {
  it('sends the key, and one Idempotency-Key on every try of a POST retried after 503 with Retry-After', async () => {
    const seen: Request[] = [];
    const answers = [
      json(503, { error: { code: 'service_unavailable', message: 'x' } }, { 'retry-after': '0' }),
      json(200, { queued: 3 }),
    ];
    const client = createSwitchboardClient({
      baseUrl: 'https://api.example/',
      apiKey: 'sk_live_x',
      fetch: async (request) => {
        seen.push(request as Request);
        return answers.shift()!;
      },
    });
    const { data } = await client.POST('/v1/numbers/{id}/webhook-events/recover', {
      params: { path: { id: 'num_1' } },
      body: { since: '2026-11-20T00:00:00Z' },
    });
    expect(data).toEqual({ queued: 3 });
    expect(seen).toHaveLength(2);
    expect(seen[0].url).toBe('https://api.example/v1/numbers/num_1/webhook-events/recover');
    expect(seen[0].headers.get('authorization')).toBe('Bearer sk_live_x');
    const keys = seen.map((request) => request.headers.get('idempotency-key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await seen[1].text()).toBe('{"since":"2026-11-20T00:00:00Z"}');
  });

  it('keeps an Idempotency-Key the caller set, adds none to a GET, and gives up after maxRetries', async () => {
    const seen: Request[] = [];
    const client = createSwitchboardClient({
      baseUrl: 'https://api.example',
      apiKey: 'k',
      maxRetries: 1,
      retryBaseMs: 1,
      fetch: async (request) => {
        seen.push(request as Request);
        return json(429, { error: { code: 'rate_limited', message: 'slow down' } });
      },
    });
    const { error, response } = await client.GET('/v1/numbers');
    expect(response.status).toBe(429);
    expect(error).toEqual({ error: { code: 'rate_limited', message: 'slow down' } });
    expect(seen).toHaveLength(2);
    expect(seen[0].headers.get('idempotency-key')).toBeNull();
    await client.POST('/v1/numbers/{id}/webhook-test', {
      params: { path: { id: '1' }, header: { 'Idempotency-Key': 'mine' } },
    });
    expect(seen[2].headers.get('idempotency-key')).toBe('mine');
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:10 GMT', 4000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});

describe('paginate', () => {
  it('walks every page by starting_after and throws the error envelope of a refused page', async () => {
    const pages: Record<string, { data: { id: string }[]; has_more: boolean }> = {
      first: { data: [{ id: 'a' }, { id: 'b' }], has_more: true },
      b: { data: [{ id: 'c' }], has_more: false },
    };
    const asked: (string | undefined)[] = [];
    const ids: string[] = [];
    for await (const item of paginate(async (after) => {
      asked.push(after);
      return { data: pages[after ?? 'first'], response: new Response() };
    })) {
      ids.push(item.id);
    }
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(asked).toEqual([undefined, 'b']);

    const refused = paginate(async () => ({
      error: { error: { code: 'not_found', message: 'No number' } },
      response: new Response(null, { status: 404 }),
    }));
    await expect(refused.next()).rejects.toMatchObject({ name: 'SwitchboardError', status: 404, code: 'not_found' });
    expect(new SwitchboardError(500, undefined).message).toBe('HTTP 500');
  });
});

/** One page of a cursor-paginated list: `{ data, has_more }`, the next page starting after the last item's id. */
export interface CursorPage<T> {
  data: T[];
  has_more: boolean;
}

/** What an openapi-fetch call resolves to: the page, or the error envelope. */
export interface PageResult<T> {
  data?: CursorPage<T>;
  error?: unknown;
  response: Response;
}

export class SwitchboardError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    const error = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(error ? `${status} ${error.code}: ${error.message}` : `HTTP ${status}`);
    this.name = 'SwitchboardError';
  }

  /** The API's error code (`not_found`, `invalid_request`, ...), when the answer had one. */
  get code(): string | undefined {
    return (this.body as { error?: { code?: string } } | undefined)?.error?.code;
  }
}

/**
 * Every item of a cursor-paginated list, page after page:
 *
 *   for await (const event of paginate((starting_after) =>
 *     client.GET('/v1/numbers/{id}/webhook-events', { params: { path: { id }, query: { starting_after } } }))) { ... }
 *
 * Throws `SwitchboardError` when a page is refused.
 */
export async function* paginate<T extends { id: string | number }>(
  page: (startingAfter: string | undefined) => Promise<PageResult<T>>,
): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const result = await page(after);
    if (!result.data) throw new SwitchboardError(result.response.status, result.error);
    yield* result.data.data;
    const last = result.data.data.at(-1);
    if (!result.data.has_more || last === undefined) return;
    after = String(last.id);
  }
}

import type { ArgumentMetadata } from '@nestjs/common';
import {
  CreateApiKeyBody,
  FoundItemCreate,
  ListFoundItemsQuery,
  ListNumbersQuery,
  SimulateProviderCallBody,
  UpdateAccountBody,
} from '@switchboard/contracts';
import { createValidationPipe } from './validation.pipe';

/** The pipe as Nest runs it on a route: what a client reads in the 400's `message` (docs/adr/0057). */
async function messageOf(
  type: 'body' | 'query',
  metatype: ArgumentMetadata['metatype'],
  value: unknown,
): Promise<string> {
  try {
    await createValidationPipe().transform(value, { type, metatype });
  } catch (error) {
    expect(error).toMatchObject({ code: 'invalid_request' });
    return (error as Error).message;
  }
  throw new Error('the value was accepted');
}

const call = { to: '+14158675309', caller: '+14158675309', duration_sec: 60, outcome: 'order_placed' };

describe('createValidationPipe', () => {
  it('says a missing body field is required, not the last rule it breaks', async () => {
    expect(await messageOf('body', FoundItemCreate, { description: 'Red umbrella' })).toBe('location_id is required');
    expect(await messageOf('body', FoundItemCreate, undefined)).toBe(
      'location_id is required; description is required',
    );
  });

  it('names a wrong type before a range or a length', async () => {
    expect(await messageOf('body', FoundItemCreate, { location_id: '3', description: 'Red umbrella' })).toBe(
      'location_id must be an integer',
    );
    expect(await messageOf('body', FoundItemCreate, { location_id: 3, description: 42 })).toBe(
      'description must be a string',
    );
    expect(await messageOf('body', UpdateAccountBody, { auto_top_up: [] })).toBe('auto_top_up must be an object');
  });

  it('names the first rule a well-typed value breaks, in the words of the contract', async () => {
    expect(await messageOf('body', FoundItemCreate, { location_id: 3, description: 'x'.repeat(2001) })).toBe(
      'description must be at most 2000 characters',
    );
    expect(await messageOf('body', SimulateProviderCallBody, { ...call, duration_sec: 86_401 })).toBe(
      'duration_sec must be at most 86400',
    );
    expect(await messageOf('body', UpdateAccountBody, { tier: 'gold' })).toBe(
      'tier must be one of starter, growth, scale',
    );
  });

  it('names nested properties and array items by their path, and unknown fields', async () => {
    const turn = { role: 'caller', text: 'hello' };
    expect(
      await messageOf('body', SimulateProviderCallBody, { ...call, transcript: [turn, turn, { text: 'hi' }] }),
    ).toBe('transcript[2].role is required');
    expect(
      await messageOf('body', SimulateProviderCallBody, { ...call, transcript: [turn, { ...turn, mood: 'happy' }] }),
    ).toBe('transcript[1].mood is not a known field');
    expect(await messageOf('body', UpdateAccountBody, { auto_top_up: { threshold_cents: 100 } })).toBe(
      'auto_top_up.amount_cents is required',
    );
    expect(await messageOf('body', CreateApiKeyBody, { ip_allowlist: ['203.0.113.7', 7] })).toBe(
      'ip_allowlist[1] must be a string',
    );
    expect(await messageOf('body', FoundItemCreate, { locationId: 3, description: 'Red umbrella' })).toBe(
      'locationId is not a known field; location_id is required',
    );
  });

  it('words query parameters the same way: filters, limit and cursor', async () => {
    expect(await messageOf('query', ListFoundItemsQuery, {})).toBe('location_id is required');
    expect(await messageOf('query', ListFoundItemsQuery, { location_id: 'abc' })).toBe(
      'location_id must be an integer',
    );
    expect(await messageOf('query', ListFoundItemsQuery, { location_id: '1', page: '0' })).toBe(
      'page must be at least 1',
    );
    expect(await messageOf('query', ListFoundItemsQuery, { location_id: '1', status: 'lost' })).toBe(
      'status must be one of stored, returned, donated, disposed',
    );
    expect(await messageOf('query', ListNumbersQuery, { limit: 'ten' })).toBe('limit must be an integer');
    expect(await messageOf('query', ListNumbersQuery, { limit: '101' })).toBe('limit must be at most 100');
    expect(await messageOf('query', ListNumbersQuery, { starting_after: ['num_1', 'num_2'] })).toBe(
      'starting_after must be a string',
    );
  });

  it('refuses a body that is not a JSON object before looking at its fields', async () => {
    expect(await messageOf('body', FoundItemCreate, [1, 2])).toBe('The request body must be a JSON object.');
  });
});

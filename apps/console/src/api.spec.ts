import { api, apiUrl } from './api';

describe("the console's typed addresses", () => {
  it('fills in path parameters, encoded', () => {
    expect(apiUrl('/console/api/calls/{call_id}/recording', { path: { call_id: 'CA 1/2' } })).toBe(
      '/console/api/calls/CA%201%2F2/recording',
    );
    expect(apiUrl('/console/api/calls/live')).toBe('/console/api/calls/live');
  });

  it("leaves out what a form left empty, and writes numbers and flags as the API's query reads them", () => {
    expect(apiUrl('/console/api/calls/export', { query: { format: 'csv', q: '', caller: undefined } })).toBe(
      '/console/api/calls/export?format=csv',
    );
    expect(
      apiUrl('/console/api/calls/export', {
        query: { q: '"gluten free" -pizza', min_duration: 90, successful: true, format: 'jsonl' },
      }),
    ).toBe('/console/api/calls/export?q=%22gluten+free%22+-pizza&min_duration=90&successful=true&format=jsonl');
  });
});

// Never called: `tsc -p apps/console/tsconfig.json` checks that the client refuses what the API's description does not
// have (each `@ts-expect-error` must meet an error, or the check fails).
export async function refusedByTheTypeCheck(): Promise<void> {
  // @ts-expect-error: no such route
  await api.GET('/console/api/call');
  // @ts-expect-error: sign-in takes an email and a password
  await api.POST('/console/api/sign-in', { body: { email: 'jane@example.com' } });
  // @ts-expect-error: the number's id is required
  await api.GET('/console/api/numbers/{id}');
  // @ts-expect-error: a role is one of the console's roles
  await api.PATCH('/console/api/users/{id}', { params: { path: { id: 'usr_1' } }, body: { role: 'admin' } });
  // @ts-expect-error: the recording is a GET (and a DELETE), not a POST
  await api.POST('/console/api/calls/{call_id}/recording', { params: { path: { call_id: 'CA1' } } });
  const number = await api.GET('/console/api/numbers/{id}', { params: { path: { id: 'num_1' } } });
  // @ts-expect-error: a number has no `phone` (it is `phone_number`)
  void number.phone;
}

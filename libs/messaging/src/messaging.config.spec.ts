import { eventSubject, rpcSubject, streamName } from './messaging.config';

describe('messaging configuration', () => {
  it('namespaces subjects and streams by prefix', () => {
    const config = { prefix: 'e2e-ab1' };
    expect(rpcSubject(config, 'numbers.v1.list')).toBe('e2e-ab1.numbers.v1.list');
    expect(eventSubject(config, 'call.completed')).toBe('e2e-ab1.events.v1.call.completed');
    expect(streamName(config, 'CALLS')).toBe('E2E_AB1_CALLS');
  });
});

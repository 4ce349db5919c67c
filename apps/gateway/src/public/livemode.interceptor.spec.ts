import { markLivemode, withLivemode } from './livemode.interceptor';

const LIVE_ACCOUNT = 'acct_7';
const TEST_ACCOUNT = 'acct_test_7';

function listReply() {
  return {
    data: [
      { id: 'num_1', status: 'active' },
      { id: 'num_2', status: 'released' },
    ],
    has_more: false,
  };
}

describe('livemode on an answer', () => {
  it('marks a list reply in place with the same JSON as the copying form, for live and test accounts', () => {
    for (const [accountId, livemode] of [
      [LIVE_ACCOUNT, true],
      [TEST_ACCOUNT, false],
    ] as const) {
      const reply = listReply();
      const marked = markLivemode(reply, accountId);
      expect(marked).toBe(reply);
      expect(JSON.stringify(marked)).toBe(JSON.stringify(withLivemode(listReply(), livemode)));
      expect(reply.data.map((item) => (item as { livemode?: boolean }).livemode)).toEqual([livemode, livemode]);
    }
  });

  it('leaves an answer without an API key, and anything not a plain object, as it is', () => {
    const reply = listReply();
    expect(markLivemode(reply, undefined)).toEqual(listReply());
    const bytes = Buffer.from('{}');
    expect(markLivemode(bytes, LIVE_ACCOUNT)).toBe(bytes);
    expect(markLivemode(['a'], LIVE_ACCOUNT)).toEqual(['a']);
    expect(markLivemode(null, LIVE_ACCOUNT)).toBeNull();
  });

  it('marks only the objects of a data list, not its other items', () => {
    const reply = { data: [{ id: 'num_1' }, 'text', null], has_more: false };
    expect(markLivemode(reply, LIVE_ACCOUNT)).toEqual({
      data: [{ id: 'num_1', livemode: true }, 'text', null],
      has_more: false,
      livemode: true,
    });
  });
});

import { markLivemode, withLivemode } from './livemode';

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
    for (const livemode of [true, false]) {
      const reply = listReply();
      const marked = markLivemode(reply, livemode);
      expect(marked).toBe(reply);
      expect(JSON.stringify(marked)).toBe(JSON.stringify(withLivemode(listReply(), livemode)));
      expect(reply.data.map((item) => (item as { livemode?: boolean }).livemode)).toEqual([livemode, livemode]);
    }
  });

  it('leaves anything not a plain object as it is', () => {
    const bytes = Buffer.from('{}');
    expect(markLivemode(bytes, true)).toBe(bytes);
    expect(withLivemode(bytes, true)).toBe(bytes);
    expect(markLivemode(['a'], true)).toEqual(['a']);
    expect(markLivemode(null, true)).toBeNull();
    class View {
      id = 'num_1';
    }
    expect(markLivemode({ data: [new View()] }, true)).toEqual({ data: [new View()], livemode: true });
  });

  it('marks only the objects of a data list, not its other items', () => {
    const reply = { data: [{ id: 'num_1' }, 'text', null], has_more: false };
    expect(markLivemode(reply, true)).toEqual({
      data: [{ id: 'num_1', livemode: true }, 'text', null],
      has_more: false,
      livemode: true,
    });
  });
});

import { withLivemode } from './livemode';

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
  it('sets livemode last on a list answer and on each of its objects, for live and test accounts', () => {
    for (const livemode of [true, false]) {
      expect(JSON.stringify(withLivemode(listReply(), livemode))).toBe(
        `{"data":[{"id":"num_1","status":"active","livemode":${livemode}},` +
          `{"id":"num_2","status":"released","livemode":${livemode}}],"has_more":false,"livemode":${livemode}}`,
      );
    }
  });

  it('copies the answer: the one it was given is left as it was', () => {
    const reply = listReply();
    withLivemode(reply, true);
    expect(reply).toEqual(listReply());
  });

  it('leaves anything not a plain object as it is, and the items of a data list that are not objects', () => {
    const bytes = Buffer.from('{}');
    expect(withLivemode(bytes, true)).toBe(bytes);
    expect(withLivemode(['a'], true)).toEqual(['a']);
    expect(withLivemode(null, true)).toBeNull();
    expect(withLivemode({ data: [{ id: 'num_1' }, 'text', null] }, false)).toEqual({
      data: [{ id: 'num_1', livemode: false }, 'text', null],
      livemode: false,
    });
  });
});

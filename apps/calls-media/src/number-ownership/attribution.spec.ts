import { aNumberState, anAccountId, aNumberId } from '../../test/factories/number-state.factory';
import { attributeCall } from './attribution';

const at = (iso: string) => new Date(iso);
const phone = '+14155550100';

describe('attributeCall', () => {
  const provisioned = aNumberState({ phone_number: phone, changed_at: at('2026-11-01T10:00:00Z') });

  it('gives a call to the account that owned the number when it started', () => {
    const result = attributeCall([provisioned], {
      startedAt: at('2026-11-02T09:00:00Z'),
      reportedAt: at('2026-11-02T09:05:00Z'),
    });
    expect(result).toEqual({ kind: 'owned', state: provisioned });
  });

  it('gives nobody a call to a number it knows nothing of', () => {
    expect(
      attributeCall([], { startedAt: at('2026-11-02T09:00:00Z'), reportedAt: at('2026-11-02T09:05:00Z') }),
    ).toEqual({ kind: 'unowned' });
  });

  it('gives nobody a call that started after the number was released', () => {
    const released = {
      ...provisioned,
      version: 2n,
      status: 'released',
      answering: false,
      changed_at: at('2026-11-05T00:00:00Z'),
    };
    const result = attributeCall([provisioned, released], {
      startedAt: at('2026-11-06T00:00:00Z'),
      reportedAt: at('2026-11-06T00:01:00Z'),
    });
    expect(result).toEqual({ kind: 'unowned' });
  });

  it('gives a late report of a call made before the release to the owner of that time', () => {
    const released = {
      ...provisioned,
      version: 2n,
      status: 'released',
      answering: false,
      changed_at: at('2026-11-05T00:00:00Z'),
    };
    const result = attributeCall([released, provisioned], {
      startedAt: at('2026-11-04T23:00:00Z'),
      reportedAt: at('2026-11-06T00:00:00Z'),
    });
    expect(result).toEqual({ kind: 'owned', state: provisioned });
  });

  it('tells the old owner from the new one when a phone number was released and provisioned again', () => {
    const released = {
      ...provisioned,
      version: 2n,
      status: 'released',
      answering: false,
      changed_at: at('2026-11-05T00:00:00Z'),
    };
    const reissued = aNumberState({
      phone_number: phone,
      number_id: aNumberId(),
      account_id: anAccountId(),
      changed_at: at('2026-11-07T00:00:00Z'),
    });
    const states = [provisioned, released, reissued];
    expect(
      attributeCall(states, { startedAt: at('2026-11-04T00:00:00Z'), reportedAt: at('2026-11-08T00:00:00Z') }),
    ).toEqual({ kind: 'owned', state: provisioned });
    expect(
      attributeCall(states, { startedAt: at('2026-11-07T12:00:00Z'), reportedAt: at('2026-11-08T00:00:00Z') }),
    ).toEqual({ kind: 'owned', state: reissued });
    expect(
      attributeCall(states, { startedAt: at('2026-11-06T00:00:00Z'), reportedAt: at('2026-11-08T00:00:00Z') }),
    ).toEqual({ kind: 'unowned' });
  });

  it('treats a number that was past_due at the time of the call as paused', () => {
    const pastDue = {
      ...provisioned,
      version: 2n,
      status: 'past_due',
      answering: false,
      changed_at: at('2026-12-01T00:00:00Z'),
    };
    const paid = {
      ...provisioned,
      version: 3n,
      status: 'active',
      answering: true,
      changed_at: at('2026-12-03T00:00:00Z'),
    };
    const states = [provisioned, pastDue, paid];
    expect(
      attributeCall(states, { startedAt: at('2026-12-02T00:00:00Z'), reportedAt: at('2026-12-04T00:00:00Z') }),
    ).toEqual({ kind: 'paused', state: pastDue });
    expect(
      attributeCall(states, { startedAt: at('2026-12-03T01:00:00Z'), reportedAt: at('2026-12-04T00:00:00Z') }),
    ).toEqual({ kind: 'owned', state: paid });
  });

  it('gives a call that starts before the number was first provisioned to the owner in force when it was reported', () => {
    const result = attributeCall([provisioned], {
      startedAt: at('2026-10-31T23:59:00Z'),
      reportedAt: at('2026-11-01T10:00:01Z'),
    });
    expect(result).toEqual({ kind: 'owned', state: provisioned });
  });

  it('does not give a call to a number provisioned after the report arrived', () => {
    const result = attributeCall([provisioned], {
      startedAt: at('2026-11-01T09:00:00Z'),
      reportedAt: at('2026-11-01T09:30:00Z'),
    });
    expect(result).toEqual({ kind: 'unowned' });
  });

  it('waits for the provisioning when only the release of a number is known (events out of order)', () => {
    const released = {
      ...provisioned,
      version: 2n,
      status: 'released',
      answering: false,
      changed_at: at('2026-11-05T00:00:00Z'),
    };
    expect(
      attributeCall([released], { startedAt: at('2026-11-04T00:00:00Z'), reportedAt: at('2026-11-06T00:00:00Z') }),
    ).toEqual({ kind: 'unowned' });
  });

  it('uses the newest version when two states share a timestamp', () => {
    const same = at('2026-11-01T10:00:00Z');
    const v1 = { ...provisioned, changed_at: same };
    const v2 = { ...provisioned, version: 2n, status: 'past_due', answering: false, changed_at: same };
    expect(
      attributeCall([v2, v1], { startedAt: at('2026-11-01T11:00:00Z'), reportedAt: at('2026-11-01T12:00:00Z') }),
    ).toEqual({ kind: 'paused', state: v2 });
  });

  describe('a phone number released by one account and provisioned by another (issue 47)', () => {
    // X holds +15125550100 for a second, releases it, and Y provisions it a second later; a 30 s call is reported a
    // second after that, its start (report time less the duration) before any of it.
    const x = aNumberState({ phone_number: '+15125550100', changed_at: at('2026-11-28T10:00:00Z') });
    const xReleased = {
      ...x,
      version: 2n,
      status: 'released',
      answering: false,
      changed_at: at('2026-11-28T10:00:01Z'),
    };
    const y = aNumberState({
      phone_number: '+15125550100',
      number_id: aNumberId(),
      account_id: anAccountId(),
      changed_at: at('2026-11-28T10:00:02Z'),
    });
    const call = { startedAt: at('2026-11-28T09:59:33Z'), reportedAt: at('2026-11-28T10:00:03Z') };

    it('gives a call that started before every tenure to the holder when it was reported, never the one who released', () => {
      expect(attributeCall([x, xReleased, y], call)).toEqual({ kind: 'owned', state: y });
    });

    it('waits, rather than give it to the one who released, while the new holder is not known here yet', () => {
      expect(attributeCall([x, xReleased], call)).toEqual({ kind: 'unowned' });
    });

    it("still gives a call that started within the first holder's tenure to them (a late report)", () => {
      expect(attributeCall([x, xReleased, y], { ...call, startedAt: at('2026-11-28T10:00:00.500Z') })).toEqual({
        kind: 'owned',
        state: x,
      });
    });
  });

  it('chooses neither of two numbers that held the phone number at once', () => {
    const other = aNumberState({
      phone_number: phone,
      number_id: aNumberId(),
      account_id: anAccountId(),
      changed_at: at('2026-11-03T00:00:00Z'),
    });
    const states = [provisioned, other];
    expect(
      attributeCall(states, { startedAt: at('2026-11-04T00:00:00Z'), reportedAt: at('2026-11-04T00:01:00Z') }),
    ).toEqual({ kind: 'ambiguous', states: [provisioned, other] });
    // Before both: both were in force when it was reported.
    expect(
      attributeCall(states, { startedAt: at('2026-10-01T00:00:00Z'), reportedAt: at('2026-11-04T00:01:00Z') }),
    ).toEqual({ kind: 'ambiguous', states: [provisioned, other] });
    // Within one only: that one's.
    expect(
      attributeCall(states, { startedAt: at('2026-11-02T00:00:00Z'), reportedAt: at('2026-11-04T00:01:00Z') }),
    ).toEqual({ kind: 'owned', state: provisioned });
  });
});

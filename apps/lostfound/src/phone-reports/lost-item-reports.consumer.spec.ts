import { claimInput, lostDate } from './lost-item-reports.consumer';

describe('a phone report as a claim', () => {
  const report = {
    call_sid: 'CA0123456789abcdef0123456789abcdef',
    number_id: 'num_7',
    caller: '+14155550177',
    caller_name: '  Sam Lee ',
    category: 'umbrella',
    description: 'Green umbrella',
    color: 'green',
    where_lost: 'Platform 4',
    lost_at: '2026-11-17T21:10:00-05:00',
  };

  it("files under the caller's number and name, where and when it was lost", () => {
    expect(claimInput(report)).toEqual({
      claimant_name: 'Sam Lee',
      claimant_phone: '+14155550177',
      category: 'umbrella',
      description: 'Green umbrella',
      color: 'green',
      lost_area: 'Platform 4',
      lost_date: '2026-11-18',
    });
  });

  it('names an anonymous caller, and leaves out a date it cannot read', () => {
    expect(claimInput({ ...report, caller_name: '', lost_at: '' })).toMatchObject({
      claimant_name: 'Caller (by phone)',
      lost_date: undefined,
    });
  });

  it.each([
    ['2026-11-20', '2026-11-20'],
    ['2026-11-20T23:30:00Z', '2026-11-20'],
    ['2026-11-20T23:30:00-02:00', '2026-11-21'],
    ['2026-02-30', undefined],
    ['1850-01-01', undefined],
    ['yesterday', undefined],
    ['', undefined],
  ])('reads lost_at %p as the UTC day %p', (lostAt, day) => {
    expect(lostDate(lostAt)).toBe(day);
  });
});

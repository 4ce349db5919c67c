import { MATCH_THRESHOLD, scoreMatch, type MatchSide } from './match-rule';

function side(overrides: Partial<MatchSide> = {}): MatchSide {
  return { category: 'umbrella', description: '', color: '', area: '', date: null, ...overrides };
}

describe('matching rule', () => {
  it('matches a claim that only names its category with a stored item of that category', () => {
    expect(scoreMatch(side(), side({ description: 'Umbrella' }))).toEqual({ match: true, score: 4 });
  });

  it('never matches different categories, whatever else agrees', () => {
    const verdict = scoreMatch(
      side({ category: 'wallet', color: 'black', description: 'leather with initials', area: 'Gate 4' }),
      side({ category: 'phone', color: 'black', description: 'leather with initials', area: 'Gate 4' }),
    );
    expect(verdict.match).toBe(false);
  });

  it('does not match when the colours disagree, even in the same category, place and week', () => {
    expect(scoreMatch(side({ description: 'blue umbrella' }), side({ color: 'red' }))).toEqual({
      match: false,
      score: 0,
    });
    const claim = side({ color: 'red', area: 'Gate B12', date: '2026-11-17', description: 'wooden handle' });
    expect(scoreMatch(claim, side({ color: 'blue', area: 'Gate B12', date: '2026-11-18' }))).toEqual({
      match: false,
      score: 3,
    });
  });

  it('lets strong agreement elsewhere outweigh a colour described differently', () => {
    const claim = side({ color: 'black', area: 'Gate B12', description: 'wooden handle, torn strap, duck logo' });
    expect(
      scoreMatch(claim, side({ color: 'navy', area: 'Gate B12', description: 'duck logo, wooden handle, torn strap' }))
        .score,
    ).toBe(5);
  });

  it('finds colours in the description as well as the colour field, with their synonyms', () => {
    expect(scoreMatch(side({ description: 'a navy umbrella' }), side({ color: 'Blue' })).score).toBe(6);
    expect(scoreMatch(side({ color: 'gray' }), side({ description: 'grey umbrella' })).score).toBe(6);
  });

  it('never matches an item found more than a day before the loss', () => {
    const verdict = scoreMatch(side({ date: '2026-11-10', color: 'red' }), side({ date: '2026-11-08', color: 'red' }));
    expect(verdict).toMatchObject({ match: false, reason: 'found before lost' });
  });

  it('allows a day of slack for time zones and adds a point when found within a week of the loss', () => {
    expect(scoreMatch(side({ date: '2026-11-10' }), side({ date: '2026-11-09' })).score).toBe(5);
    expect(scoreMatch(side({ date: '2026-11-10' }), side({ date: '2026-11-17' })).score).toBe(5);
    expect(scoreMatch(side({ date: '2026-11-10' }), side({ date: '2026-11-30' })).score).toBe(4);
  });

  it('adds two points for the same area and one for a word in common', () => {
    expect(scoreMatch(side({ area: 'Gate B12' }), side({ area: 'gate  b12' })).score).toBe(6);
    expect(scoreMatch(side({ area: 'Gate B12' }), side({ area: 'Gate C3' })).score).toBe(5);
  });

  it('counts shared description words, leaving out colours and category words, at most three', () => {
    const claim = side({ category: 'other', description: 'scooter with dinosaur stickers, folding handle, bell' });
    const item = side({ category: 'other', description: 'folding scooter, dinosaur sticker on the deck, bell' });
    expect(scoreMatch(claim, item)).toEqual({ match: false, score: 3 });
    expect(scoreMatch({ ...claim, color: 'green' }, { ...item, color: 'green' })).toEqual({ match: true, score: 5 });
    expect(scoreMatch(side({ description: 'umbrella umbrella' }), side({ description: 'umbrella' })).score).toBe(4);
  });

  it('needs four points of colour, place, date and words when either side has no category', () => {
    const claim = side({ category: 'other', description: 'scooter', color: 'green' });
    expect(scoreMatch(claim, side({ description: 'green scooter' })).score).toBe(3);
    expect(
      scoreMatch({ ...claim, area: 'Lobby' }, side({ description: 'green scooter', area: 'lobby' })).score,
    ).toBeGreaterThanOrEqual(MATCH_THRESHOLD);
  });
});

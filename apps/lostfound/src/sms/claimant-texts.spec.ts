import { matchText, withoutLinks, type MatchTextFacts } from './claimant-texts';

function facts(overrides: Partial<MatchTextFacts> = {}): MatchTextFacts {
  return {
    claim_id: 7,
    claim_class: 'low',
    item_class: 'low',
    location_name: 'Union Station',
    item_category: 'umbrella',
    description: 'Red umbrella with a wooden handle',
    color: 'red',
    found_date: '2026-11-18',
    ...overrides,
  };
}

describe('texts to claimants', () => {
  it('tells a low-value claimant what was found, in our words, and where to collect it', () => {
    expect(matchText(facts())).toBe(
      'Union Station lost & found: an umbrella (red) handed in on 2026-11-18 may be yours (claim #7). Call us or stop by to collect it.',
    );
    expect(matchText(facts({ item_category: 'clothing', color: '', description: 'navy scarf' }))).toContain(
      'a piece of clothing (blue)',
    );
  });

  it('names a category outside the vocabulary only as "an item" (the word is the tenant\'s)', () => {
    const text = matchText(facts({ item_category: 'visit evil.example', color: '', description: 'scooter' }));
    expect(text).toContain('an item handed in');
    expect(text).not.toMatch(/evil|scooter/);
  });

  it.each([
    ['the description', { description: 'Red umbrella, claim yours at https://evil.example/claim?id=1 or bit.ly/abc' }],
    ['the colour', { color: 'red www.evil.example' }],
    ['the category', { item_category: 'http://evil.example' }],
    ['the location name', { location_name: 'Union Station evil.example/pay' }],
  ])('carries no link a tenant wrote in %s', (_, overrides) => {
    const text = matchText(facts(overrides));
    expect(text).not.toMatch(/https?:|www|evil|bit\.ly|\/\w/);
    expect(text).toContain('Union Station lost & found');
  });

  it.each([
    ['a high-value claim', { claim_class: 'high' as const }],
    ['a high-value item', { item_class: 'high' as const }],
    ['an urgent-class item', { item_class: 'urgent' as const }],
  ])('says only "possible match, call us, bring proof" for %s', (_, overrides) => {
    const secret = facts({
      ...overrides,
      description: 'Black Gucci wallet, initials J.S.',
      color: 'black',
      item_category: 'wallet',
    });
    const text = matchText(secret);
    expect(text).toMatch(/possible match/);
    expect(text).toMatch(/call us/i);
    expect(text).toMatch(/proof of ownership/);
    for (const detail of ['Gucci', 'J.S.', 'black', 'wallet', '2026-11-18']) expect(text).not.toContain(detail);
  });

  it('keeps the text short whatever the location is called', () => {
    expect(matchText(facts({ location_name: 'x'.repeat(500) })).length).toBeLessThan(200);
  });

  it('takes out of a text every word a phone would show as a link, and keeps the rest', () => {
    expect(
      withoutLinks('St. Pancras, see https://a.example or evil.example/x, mail me@x.org, or bit\u3002ly now'),
    ).toBe('St. Pancras, see or mail or now');
    expect(withoutLinks('Gate B12')).toBe('Gate B12');
  });
});

import { matchText, type MatchTextFacts } from './claimant-texts';

function facts(overrides: Partial<MatchTextFacts> = {}): MatchTextFacts {
  return {
    claim_id: 7,
    claim_class: 'low',
    item_class: 'low',
    location_name: 'Union Station',
    category: 'umbrella',
    description: 'Red umbrella with a wooden handle',
    color: 'red',
    found_date: '2026-11-18',
    ...overrides,
  };
}

describe('texts to claimants', () => {
  it('tells a low-value claimant what was found and where to collect it', () => {
    const text = matchText(facts());
    expect(text).toContain('Union Station');
    expect(text).toContain('Red umbrella with a wooden handle (red)');
    expect(text).toContain('2026-11-18');
    expect(text).toContain('#7');
  });

  it.each([
    ['a high-value claim', { claim_class: 'high' as const }],
    ['a high-value item', { item_class: 'high' as const }],
    ['an urgent-class item', { item_class: 'urgent' as const }],
  ])('says only "possible match, call us, bring proof" for %s', (_, overrides) => {
    const secret = facts({ ...overrides, description: 'Black Gucci wallet, initials J.S.', color: 'black', category: 'wallet' });
    const text = matchText(secret);
    expect(text).toMatch(/possible match/);
    expect(text).toMatch(/call us/i);
    expect(text).toMatch(/proof of ownership/);
    for (const detail of ['Gucci', 'J.S.', 'black', 'wallet', '2026-11-18']) expect(text).not.toContain(detail);
  });

  it('shortens a long description so the text stays short', () => {
    const text = matchText(facts({ description: 'x'.repeat(500) }));
    expect(text.length).toBeLessThan(260);
  });
});

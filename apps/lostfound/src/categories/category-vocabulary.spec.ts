import {
  CATEGORY_DEFINITIONS,
  categorise,
  readDescription,
  resolveCategory,
  termsOf,
  valueClassOf,
} from './category-vocabulary';

describe('category vocabulary', () => {
  it.each([
    ['wallet', 'wallet', 'high'],
    ['Wallet', 'wallet', 'high'],
    ['  WALLETS ', 'wallet', 'high'],
    ['umbrella', 'umbrella', 'low'],
    ['Umbrella', 'umbrella', 'low'],
    ['child', 'child', 'urgent'],
    ['Person', 'person', 'urgent'],
    ['MEDICATION', 'medication', 'urgent'],
  ])('reads the fixed product choice %j as %s (%s)', (given, name, valueClass) => {
    expect(resolveCategory(given)).toEqual({ name, valueClass, known: true });
  });

  it.each([
    ['purse', 'handbag'],
    ['Cell-Phone', 'phone'],
    ['cell_phone', 'phone'],
    ['iPhone', 'phone'],
    ['passport', 'id_document'],
    ["Driver's License", 'id_document'],
    ['car keys', 'keys'],
    ['key', 'keys'],
    ['ring', 'jewelry'],
    ['Jewellery', 'jewelry'],
    ['watches', 'watch'],
    ['AirPods', 'electronics'],
    ['sunglasses', 'eyewear'],
    ['brolly', 'umbrella'],
    ['kid', 'child'],
    ['toddler', 'child'],
    ['missing person', 'person'],
    ['meds', 'medication'],
    ['insulin', 'medication'],
    ['EpiPen', 'medication'],
  ])('maps the synonym %j to %s', (given, name) => {
    expect(resolveCategory(given)?.name).toBe(name);
  });

  it('keeps a category outside the vocabulary as written (normalised) and treats it as low-value', () => {
    expect(resolveCategory('  Scooter ')).toEqual({ name: 'scooter', valueClass: 'low', known: false });
  });

  it('answers nothing for a blank category', () => {
    expect(resolveCategory('   ')).toBeUndefined();
    expect(resolveCategory(undefined)).toBeUndefined();
    expect(resolveCategory(null)).toBeUndefined();
  });

  it('lists every term once across the whole vocabulary', () => {
    const terms = CATEGORY_DEFINITIONS.flatMap((definition) =>
      [definition.name, ...definition.synonyms].map((term) => term.toLowerCase()),
    );
    expect(new Set(terms).size).toBe(terms.length);
  });

  it('classes the high-value categories the ADR lists as high-value', () => {
    for (const name of [
      'wallet',
      'handbag',
      'phone',
      'laptop',
      'tablet',
      'electronics',
      'watch',
      'jewelry',
      'keys',
      'id_document',
      'cash',
    ]) {
      expect(valueClassOf(name)).toBe('high');
    }
    expect(valueClassOf('umbrella')).toBe('low');
    expect(valueClassOf('scooter')).toBe('low');
  });

  it('widens a category to its synonyms for search', () => {
    expect(termsOf('handbag')).toEqual(expect.arrayContaining(['handbag', 'purse']));
    expect(termsOf('scooter')).toEqual(['scooter']);
  });

  describe('categorise', () => {
    it('takes the given category when there is one', () => {
      expect(categorise('umbrella', 'Blue umbrella')).toEqual({
        category: 'umbrella',
        categoryClass: 'umbrella',
        valueClass: 'low',
      });
    });

    it('keeps the category as the caller wrote it, normalised for case and spacing, with its class beside it', () => {
      expect(categorise('Scarf', 'Green wool scarf')).toEqual({
        category: 'scarf',
        categoryClass: 'clothing',
        valueClass: 'low',
      });
      expect(categorise('  Cell-Phone ', 'Black phone')).toEqual({
        category: 'cell phone',
        categoryClass: 'phone',
        valueClass: 'high',
      });
      expect(categorise('Purse', 'Small beaded clutch')).toEqual({
        category: 'purse',
        categoryClass: 'handbag',
        valueClass: 'high',
      });
      expect(categorise('Wallets', '')).toEqual({ category: 'wallets', categoryClass: 'wallet', valueClass: 'high' });
      expect(categorise(' Electric  Scooter', '')).toEqual({
        category: 'electric scooter',
        categoryClass: 'electric scooter',
        valueClass: 'low',
      });
    });

    it("reads the category from the description when none is given: the vocabulary's name of the first thing named", () => {
      expect(categorise(undefined, 'Blue backpack with stickers')).toEqual({
        category: 'bag',
        categoryClass: 'bag',
        valueClass: 'low',
      });
      expect(categorise('', 'A black leather wallet')).toEqual({
        category: 'wallet',
        categoryClass: 'wallet',
        valueClass: 'high',
      });
      expect(categorise('  ', 'Grey notebook computer')).toEqual({
        category: 'laptop',
        categoryClass: 'laptop',
        valueClass: 'high',
      });
      expect(categorise(undefined, 'Something shiny')).toEqual({
        category: 'other',
        categoryClass: 'other',
        valueClass: 'low',
      });
    });

    it('guesses a desk item\'s category in the words a claim uses: "Black iPhone 13, red case" is a phone', () => {
      const item = categorise('', 'Black iPhone 13, red case');
      const claim = categorise('phone', 'Black iPhone 13 in a red case');
      expect(item).toEqual({ category: 'phone', categoryClass: 'phone', valueClass: 'high' });
      // The claim page lists items by the claim's category: the guess must be that same word.
      expect(item.category).toBe(claim.category);
      expect(categorise(undefined, 'Silver MacBook Air')).toMatchObject({
        category: 'laptop',
        categoryClass: 'laptop',
      });
      expect(categorise(undefined, 'AirPods in a white case')).toMatchObject({
        category: 'electronics',
        categoryClass: 'electronics',
      });
    });

    it('raises a low-value category to high when the description names something high-value', () => {
      expect(categorise('jacket', 'Grey jacket, a wallet in the inside pocket')).toEqual({
        category: 'jacket',
        categoryClass: 'clothing',
        valueClass: 'high',
      });
      expect(categorise(undefined, 'Blue backpack with a laptop inside')).toEqual({
        category: 'bag',
        categoryClass: 'bag',
        valueClass: 'high',
      });
    });

    it('never lowers a high-value category because of the description', () => {
      expect(categorise('wallet', 'umbrella-shaped keyring holder')).toEqual({
        category: 'wallet',
        categoryClass: 'wallet',
        valueClass: 'high',
      });
    });

    it('never reads an urgent category from a description ("my son\'s jacket" is a jacket)', () => {
      expect(categorise(undefined, "My son's jacket")).toEqual({
        category: 'clothing',
        categoryClass: 'clothing',
        valueClass: 'low',
      });
      expect(categorise(undefined, 'lost my daughter')).toEqual({
        category: 'other',
        categoryClass: 'other',
        valueClass: 'low',
      });
    });

    it('keeps urgent when the category says so', () => {
      expect(categorise('Child', 'Boy, 6, red cap')).toEqual({
        category: 'child',
        categoryClass: 'child',
        valueClass: 'urgent',
      });
      expect(categorise('Kid', '')).toEqual({ category: 'kid', categoryClass: 'child', valueClass: 'urgent' });
    });
  });

  it('prefers two-word terms when reading a description', () => {
    expect(readDescription('grey notebook computer')).toEqual({ first: 'notebook computer', mentionsHighValue: true });
    expect(readDescription('spiral notebook')).toEqual({ first: 'notebook', mentionsHighValue: false });
  });
});

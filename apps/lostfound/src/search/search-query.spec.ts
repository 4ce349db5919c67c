import { anyWordTsQuery, searchTsQuery } from './search-query';

describe('search queries', () => {
  it('makes every word of q required and a prefix', () => {
    expect(searchTsQuery('red umbr')).toBe('red:* & umbr:*');
  });

  it('lets a synonym also find its category', () => {
    expect(searchTsQuery('black purse')).toBe('black:* & (purse:* | handbag)');
    expect(searchTsQuery('passport')).toBe('(passport:* | (id & document))');
    expect(searchTsQuery('wallet')).toBe('wallet:*');
  });

  it('keeps tsquery syntax out: only letters and digits reach the query', () => {
    expect(searchTsQuery("wallet' | !x & (y) <-> z:*")).toBe('wallet:*');
    expect(searchTsQuery('gate b12')).toBe('gate:* & b12:*');
  });

  it('answers nothing for a q without a searchable word', () => {
    expect(searchTsQuery('')).toBeUndefined();
    expect(searchTsQuery('!!! ?')).toBeUndefined();
    expect(searchTsQuery('the of and')).toBeUndefined();
    expect(searchTsQuery(undefined)).toBeUndefined();
  });

  it('matches any word of the texts for match candidates, without duplicates', () => {
    expect(anyWordTsQuery('Red umbrella', 'red', 'Gate B12')).toBe('red | umbrella | gate | b12');
    expect(anyWordTsQuery('', undefined, null)).toBeUndefined();
  });
});

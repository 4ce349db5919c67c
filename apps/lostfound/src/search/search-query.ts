import { resolveCategory } from '../categories/category-vocabulary';
import { words } from '../matching/text-terms';

/** At most this many words of a text are searched (the rest add little and cost index lookups). */
const MAX_QUERY_WORDS = 32;

/**
 * The `to_tsquery('english', …)` text for a free-text search `q`: every word must match, each as a prefix
 * ("umbr" finds "umbrella"), and a word of the category vocabulary also finds its category ("purse" finds items
 * filed as handbag). Words are reduced to letters and digits, so nothing the caller types is tsquery syntax.
 * `undefined` when `q` has no searchable word.
 */
export function searchTsQuery(q: string | null | undefined): string | undefined {
  const terms = unique(words(q))
    .slice(0, MAX_QUERY_WORDS)
    .map((word) => {
      const category = resolveCategory(word);
      if (!category?.known) return `${word}:*`;
      const canonical = category.name.split('_').join(' & ');
      return category.name === word
        ? `${word}:*`
        : `(${word}:* | ${canonical.includes('&') ? `(${canonical})` : canonical})`;
    });
  return terms.length > 0 ? terms.join(' & ') : undefined;
}

/** The tsquery text matching any word of the texts: the coarse filter that finds match candidates. */
export function anyWordTsQuery(...texts: (string | null | undefined)[]): string | undefined {
  const all = unique(texts.flatMap((text) => words(text))).slice(0, MAX_QUERY_WORDS);
  return all.length > 0 ? all.join(' | ') : undefined;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

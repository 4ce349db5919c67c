import { OTHER_CATEGORY } from '../categories/category-vocabulary';
import { areaWords, colorsOf, contentWords } from './text-terms';

/**
 * The matching rule (docs/adr/0053-lostfound-search-matching-and-texts.md). A claim and a stored item of the same location are a
 * match when they do not contradict each other and their score reaches MATCH_THRESHOLD:
 *
 * | signal      | points |
 * |-------------|--------|
 * | category    | +4 same category; different categories (neither `other`) never match |
 * | colour      | +2 a colour in common (colour field or description); -4 both name colours, none shared |
 * | area        | +2 same area; +1 a word in common |
 * | dates       | the item found more than a day before the loss never matches; +1 found within 7 days after it |
 * | description | +1 per shared word (colours and category words left out, stemmed), at most +3 |
 *
 * So a claim that only names its category matches the stored items of that category, unless the colours
 * disagree (then only strong agreement elsewhere, e.g. three shared words and the same place, brings it back);
 * without a category in common it takes four points of colour, place, date and words.
 */
export const MATCH_THRESHOLD = 4;
/** How many candidates a low-value claim is shown, best first. */
export const MAX_LISTED_MATCHES = 10;
/**
 * How many matches one new claim or one new item records at most, best first: a vague claim ("umbrella") at a
 * location holding thousands of umbrellas keeps its 50 best, and one new item texts at most 50 claimants.
 */
export const MAX_RECORDED_MATCHES = 50;

const DAY_MS = 86_400_000;

export interface MatchSide {
  category: string;
  description: string;
  color: string;
  area: string;
  /** YYYY-MM-DD or null (claims may leave lost_date out). */
  date: string | null;
}

export type MatchVerdict = { match: true; score: number } | { match: false; score: number; reason?: string };

export function scoreMatch(claim: MatchSide, item: MatchSide): MatchVerdict {
  let score = 0;

  const categoriesKnown = claim.category !== OTHER_CATEGORY && item.category !== OTHER_CATEGORY;
  if (categoriesKnown && claim.category !== item.category) return { match: false, score: 0, reason: 'category' };
  if (categoriesKnown) score += 4;

  if (claim.date && item.date) {
    const days = (Date.parse(item.date) - Date.parse(claim.date)) / DAY_MS;
    if (days < -1) return { match: false, score, reason: 'found before lost' };
    if (days <= 7) score += 1;
  }

  const claimColors = colorsOf(claim.color, claim.description);
  const itemColors = colorsOf(item.color, item.description);
  if (claimColors.size > 0 && itemColors.size > 0) {
    score += [...claimColors].some((color) => itemColors.has(color)) ? 2 : -4;
  }

  const claimArea = areaWords(claim.area);
  const itemArea = areaWords(item.area);
  if (claimArea.size > 0 && itemArea.size > 0) {
    if (sameSet(claimArea, itemArea)) score += 2;
    else if ([...claimArea].some((word) => itemArea.has(word))) score += 1;
  }

  const itemWords = contentWords(item.description);
  let shared = 0;
  for (const word of contentWords(claim.description)) if (itemWords.has(word)) shared += 1;
  score += Math.min(shared, 3);

  return score >= MATCH_THRESHOLD ? { match: true, score } : { match: false, score };
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((value) => b.has(value));
}

import type { ValueClass } from '@switchboard/contracts';
import { colorsOf } from '../matching/text-terms';

export interface MatchTextFacts {
  claim_id: number;
  claim_class: ValueClass;
  item_class: ValueClass;
  location_name: string;
  /** Item facts, used only when both the claim and the item are low-value: the item's vocabulary category… */
  item_category: string;
  /** …and the colour words of its colour and description (only the colour words, never the text around them). */
  color: string;
  description: string;
  found_date: string;
}

/**
 * How a text names an item of a low-value vocabulary category (docs/adr/0053). Any other category (one outside
 * the vocabulary, i.e. a word the tenant made up, or `other`) is "an item".
 */
const ITEM_NOUNS: Record<string, string> = {
  umbrella: 'an umbrella',
  clothing: 'a piece of clothing',
  shoes: 'a pair of shoes',
  bag: 'a bag',
  eyewear: 'a pair of glasses',
  bottle: 'a bottle',
  book: 'a book',
  toy: 'a toy',
  charger: 'a charger',
  accessory: 'an accessory',
  sports: 'a piece of sports equipment',
  stroller: 'a stroller',
};

const MAX_LOCATION_IN_TEXT = 40;

/**
 * The text a claimant gets when a newly logged item matches their claim, built from our own wording only
 * (docs/adr/0053-lostfound-search-matching-and-texts.md): no free text a tenant wrote reaches it except the location's name,
 * with anything link-like taken out. Only when both the claim and the item are low-value does it say what was
 * found (its category and colours, from our vocabulary); otherwise it says only that there may be a match and to
 * bring proof, so a text never tells anyone what a high-value item looks like (docs/adr/0053-lostfound-search-matching-and-texts.md).
 */
export function matchText(facts: MatchTextFacts): string {
  const where = clip(withoutLinks(facts.location_name), MAX_LOCATION_IN_TEXT) || 'The';
  if (facts.claim_class === 'low' && facts.item_class === 'low') {
    const noun = ITEM_NOUNS[facts.item_category] ?? 'an item';
    const colors = [...colorsOf(facts.color, facts.description)].slice(0, 2);
    const colored = colors.length > 0 ? ` (${colors.join(' and ')})` : '';
    return (
      `${where} lost & found: ${noun}${colored} handed in on ${facts.found_date} may be yours ` +
      `(claim #${facts.claim_id}). Call us or stop by to collect it.`
    );
  }
  return (
    `${where} lost & found: we may have a possible match for your claim #${facts.claim_id}. ` +
    'Please call us, and bring proof of ownership when you come.'
  );
}

/**
 * The text without the words that a phone would show as a link: a scheme or path (`https://x`, `a/b`), an
 * address (`a@b`), or a dot between two letters or digits (`bit.ly`, `evil.example`, also with the ideographic
 * and full-width dots). An abbreviation's final dot (`St.`) stays.
 */
export function withoutLinks(text: string): string {
  return text
    .split(/\s+/)
    .filter((word) => !/[/\\@:]|[\p{L}\p{N}][.\u3002\uFF0E\uFF61][\p{L}\p{N}]/u.test(word))
    .join(' ')
    .trim();
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

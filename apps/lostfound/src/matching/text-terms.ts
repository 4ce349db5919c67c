import { CATEGORY_DEFINITIONS, normalizeTerm } from '../categories/category-vocabulary';

/**
 * Words that say nothing about which thing it is: PostgreSQL's English stop words (so a word dropped here is the
 * word the database drops too) and a few of lost property's own.
 */
const STOP_WORDS = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves what which who whom this that these those am is are ' +
    'was were be been being have has had having do does did doing a an the and but if or because as until while ' +
    'of at by for with about against between into through during before after above below to from up down in out ' +
    'on off over under again further then once here there when where why how all any both each few more most ' +
    'other some such no nor not only own same so than too very can will just don should now ' +
    'lost found left near next inside outside around small large big little old new please item'
  ).split(' '),
);

/** Colour words and the colour each stands for. */
const COLORS: Record<string, string> = {
  black: 'black',
  white: 'white',
  cream: 'white',
  ivory: 'white',
  grey: 'grey',
  gray: 'grey',
  silver: 'silver',
  gold: 'gold',
  golden: 'gold',
  red: 'red',
  maroon: 'red',
  burgundy: 'red',
  crimson: 'red',
  pink: 'pink',
  orange: 'orange',
  yellow: 'yellow',
  green: 'green',
  olive: 'green',
  lime: 'green',
  blue: 'blue',
  navy: 'blue',
  teal: 'teal',
  turquoise: 'teal',
  purple: 'purple',
  violet: 'purple',
  lavender: 'purple',
  brown: 'brown',
  tan: 'brown',
  beige: 'beige',
  khaki: 'beige',
  clear: 'clear',
  transparent: 'clear',
  multicolor: 'multicolor',
  multicolored: 'multicolor',
  multicolour: 'multicolor',
  rainbow: 'multicolor',
  striped: 'striped',
  plaid: 'plaid',
};

/** Single-word vocabulary terms: they count through the category, not again as description words. */
const CATEGORY_WORDS = new Set(
  CATEGORY_DEFINITIONS.flatMap((definition) => [definition.name, ...definition.synonyms])
    .map(normalizeTerm)
    .filter((term) => !term.includes(' ')),
);

/** A light stem so that "wallets"/"wallet" and "keys"/"key" compare equal (PostgreSQL stems for search). */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Lower-case words of at least two letters or digits, stop words removed. */
export function words(text: string | null | undefined): string[] {
  return normalizeTerm(text ?? '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 2 && !STOP_WORDS.has(word));
}

/** The colours named in any of the texts. */
export function colorsOf(...texts: (string | null | undefined)[]): Set<string> {
  const found = new Set<string>();
  for (const text of texts) for (const word of words(text)) if (COLORS[word]) found.add(COLORS[word]);
  return found;
}

/** The description's words that are neither colours nor category terms, stemmed. */
export function contentWords(description: string | null | undefined): Set<string> {
  const found = new Set<string>();
  for (const word of words(description)) {
    if (COLORS[word] || CATEGORY_WORDS.has(word) || CATEGORY_WORDS.has(stem(word))) continue;
    found.add(stem(word));
  }
  return found;
}

/** Area words, stemmed ("Gate B12" and "gate b12 seating" share "gate" and "b12"). */
export function areaWords(area: string | null | undefined): Set<string> {
  return new Set(words(area).map(stem));
}

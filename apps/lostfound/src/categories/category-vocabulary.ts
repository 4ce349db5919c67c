import type { ValueClass } from '@switchboard/contracts';

/**
 * The category vocabulary (docs/adr/0053-lostfound-search-matching-and-texts.md). A category is matched case-insensitively,
 * with white space, `-` and `_` treated alike, against each canonical name and its synonyms; a simple plural
 * (`wallets`, `glasses` stays) falls back to the singular. A value outside the vocabulary is kept as written
 * (normalised) and is low-value; no value at all is read from the description, else `other`. A category is stored
 * as the caller wrote it (normalised) and its class beside it: lists filter on the category, matching and the
 * value rules use the class. See `categorise` for how the description can raise the value class.
 *
 * - high-value: released only with `verified: true`; claims see `has_match` and `verify_required`, never an item.
 * - low-value: claims see their candidate items in `matches`.
 * - urgent: a lost child, a lost person, medication: claims are refused with 422 `urgent_category`.
 */
interface CategoryDefinition {
  readonly name: string;
  readonly valueClass: ValueClass;
  readonly synonyms: readonly string[];
}

export const CATEGORY_DEFINITIONS: readonly CategoryDefinition[] = [
  // Urgent: never stored as claims. Someone needs help now, not a ticket.
  {
    name: 'child',
    valueClass: 'urgent',
    synonyms: [
      'kid',
      'baby',
      'infant',
      'toddler',
      'son',
      'daughter',
      'boy',
      'girl',
      'lost child',
      'missing child',
      'minor',
    ],
  },
  {
    name: 'person',
    valueClass: 'urgent',
    synonyms: [
      'people',
      'adult',
      'lost person',
      'missing person',
      'elderly',
      'elderly person',
      'dependent',
      'companion',
      'relative',
    ],
  },
  {
    name: 'medication',
    valueClass: 'urgent',
    synonyms: [
      'medicine',
      'medicines',
      'meds',
      'pills',
      'prescription',
      'prescriptions',
      'insulin',
      'inhaler',
      'epipen',
      'epi pen',
      'epinephrine',
      'drugs',
    ],
  },

  // High-value: money, identity, access, costly electronics and jewellery.
  {
    name: 'wallet',
    valueClass: 'high',
    synonyms: [
      'billfold',
      'card holder',
      'cardholder',
      'card case',
      'money clip',
      'coin purse',
      'credit card',
      'debit card',
      'bank card',
    ],
  },
  { name: 'handbag', valueClass: 'high', synonyms: ['purse', 'clutch', 'pocketbook'] },
  {
    name: 'phone',
    valueClass: 'high',
    synonyms: ['cellphone', 'cell phone', 'mobile', 'mobile phone', 'smartphone', 'iphone', 'android'],
  },
  {
    name: 'laptop',
    valueClass: 'high',
    synonyms: ['notebook computer', 'computer', 'macbook', 'chromebook', 'ultrabook'],
  },
  { name: 'tablet', valueClass: 'high', synonyms: ['ipad', 'e-reader', 'ereader', 'kindle'] },
  {
    name: 'electronics',
    valueClass: 'high',
    synonyms: [
      'headphones',
      'earbuds',
      'airpods',
      'headset',
      'earphones',
      'camera',
      'game console',
      'nintendo switch',
      'drone',
      'speaker',
    ],
  },
  { name: 'watch', valueClass: 'high', synonyms: ['wristwatch', 'smartwatch', 'apple watch'] },
  {
    name: 'jewelry',
    valueClass: 'high',
    synonyms: [
      'jewellery',
      'ring',
      'wedding ring',
      'engagement ring',
      'necklace',
      'bracelet',
      'earring',
      'earrings',
      'pendant',
      'brooch',
    ],
  },
  {
    name: 'keys',
    valueClass: 'high',
    synonyms: [
      'key',
      'car key',
      'car keys',
      'house key',
      'house keys',
      'key fob',
      'fob',
      'keychain',
      'key ring',
      'keyring',
    ],
  },
  {
    name: 'id_document',
    valueClass: 'high',
    synonyms: [
      'passport',
      'id',
      'id card',
      'identity card',
      'identification',
      'driver license',
      'drivers license',
      'driving licence',
      'license',
      'licence',
      'visa',
      'green card',
    ],
  },
  { name: 'cash', valueClass: 'high', synonyms: ['money', 'banknotes', 'banknote'] },

  // Low-value: everyday belongings.
  { name: 'umbrella', valueClass: 'low', synonyms: ['brolly', 'parasol'] },
  {
    name: 'clothing',
    valueClass: 'low',
    synonyms: [
      'clothes',
      'jacket',
      'coat',
      'sweater',
      'jumper',
      'hoodie',
      'sweatshirt',
      'shirt',
      't-shirt',
      'scarf',
      'hat',
      'cap',
      'beanie',
      'gloves',
      'glove',
      'mittens',
      'vest',
      'raincoat',
    ],
  },
  {
    name: 'shoes',
    valueClass: 'low',
    synonyms: ['shoe', 'sneakers', 'trainers', 'boots', 'sandals', 'flip flops', 'slippers'],
  },
  {
    name: 'bag',
    valueClass: 'low',
    synonyms: [
      'backpack',
      'rucksack',
      'tote',
      'tote bag',
      'duffel',
      'duffel bag',
      'gym bag',
      'shopping bag',
      'suitcase',
      'luggage',
      'briefcase',
      'lunch bag',
      'lunchbox',
    ],
  },
  {
    name: 'eyewear',
    valueClass: 'low',
    synonyms: ['glasses', 'eyeglasses', 'sunglasses', 'spectacles', 'reading glasses', 'shades', 'glasses case'],
  },
  { name: 'bottle', valueClass: 'low', synonyms: ['water bottle', 'flask', 'thermos', 'tumbler', 'cup', 'mug'] },
  { name: 'book', valueClass: 'low', synonyms: ['books', 'notebook', 'journal', 'diary', 'magazine', 'planner'] },
  {
    name: 'toy',
    valueClass: 'low',
    synonyms: ['toys', 'stuffed animal', 'plush', 'teddy', 'teddy bear', 'doll', 'ball'],
  },
  {
    name: 'charger',
    valueClass: 'low',
    synonyms: ['cable', 'charging cable', 'power bank', 'powerbank', 'adapter', 'power adapter', 'usb cable'],
  },
  {
    name: 'accessory',
    valueClass: 'low',
    synonyms: ['accessories', 'hair clip', 'hairband', 'belt', 'tie', 'lanyard', 'badge holder'],
  },
  {
    name: 'sports',
    valueClass: 'low',
    synonyms: ['sports equipment', 'racket', 'racquet', 'helmet', 'skateboard', 'yoga mat', 'bike lock'],
  },
  { name: 'stroller', valueClass: 'low', synonyms: ['pram', 'pushchair', 'buggy', 'car seat'] },
  { name: 'other', valueClass: 'low', synonyms: ['misc', 'miscellaneous', 'unknown', 'general', 'item', 'thing'] },
];

export const OTHER_CATEGORY = 'other';

export interface ResolvedCategory {
  /** The canonical name, or the normalised value when it is not in the vocabulary. */
  name: string;
  valueClass: ValueClass;
  /** False for a value outside the vocabulary. */
  known: boolean;
}

/** Lower case, `-`, `_`, `'` and runs of white space folded to single spaces, trimmed. */
export function normalizeTerm(value: string): string {
  return value
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .replace(/[-_\s]+/g, ' ')
    .trim();
}

const LOOKUP = new Map<string, CategoryDefinition>();
for (const definition of CATEGORY_DEFINITIONS) {
  for (const term of [definition.name, ...definition.synonyms]) {
    const key = normalizeTerm(term);
    if (LOOKUP.has(key)) throw new Error(`category term "${term}" is listed twice`);
    LOOKUP.set(key, definition);
  }
}
const BY_NAME = new Map(CATEGORY_DEFINITIONS.map((definition) => [definition.name, definition]));

function lookup(term: string): CategoryDefinition | undefined {
  const direct = LOOKUP.get(term);
  if (direct) return direct;
  if (term.endsWith('ies')) return LOOKUP.get(`${term.slice(0, -3)}y`);
  if (term.endsWith('es') && LOOKUP.has(term.slice(0, -2))) return LOOKUP.get(term.slice(0, -2));
  if (term.endsWith('s')) return LOOKUP.get(term.slice(0, -1));
  return undefined;
}

/** The category a caller wrote: canonical when it is in the vocabulary; `undefined` for blank. */
export function resolveCategory(value: string | null | undefined): ResolvedCategory | undefined {
  if (value === undefined || value === null) return undefined;
  const term = normalizeTerm(value);
  if (!term) return undefined;
  const definition = lookup(term);
  if (definition) return { name: definition.name, valueClass: definition.valueClass, known: true };
  return { name: term, valueClass: 'low', known: false };
}

/** The class of a stored category name (unknown names are low-value). */
export function valueClassOf(category: string): ValueClass {
  return BY_NAME.get(category)?.valueClass ?? 'low';
}

/** The vocabulary terms (canonical or synonym) of a category name, for widening a search. */
export function termsOf(category: string): readonly string[] {
  const definition = BY_NAME.get(category);
  return definition ? [definition.name, ...definition.synonyms] : [category];
}

/**
 * What a description names: the first vocabulary term in it (two-word terms first: "card holder", "notebook
 * computer") as written and normalised, and whether any term in it is high-value. Urgent and `other` terms are
 * skipped: a "son's jacket" is a jacket, not a lost child.
 */
export function readDescription(description: string | null | undefined): {
  first?: string;
  mentionsHighValue: boolean;
} {
  const words = normalizeTerm(description ?? '')
    .replace(/[^a-z0-9 ]+/g, ' ')
    .split(' ')
    .filter(Boolean);
  let first: string | undefined;
  let mentionsHighValue = false;
  for (let i = 0; i < words.length; i += 1) {
    const pairTerm = i + 1 < words.length ? `${words[i]} ${words[i + 1]}` : undefined;
    const pair = pairTerm ? lookup(pairTerm) : undefined;
    const definition = pair ?? lookup(words[i]);
    if (!definition || definition.valueClass === 'urgent' || definition.name === OTHER_CATEGORY) continue;
    first ??= pair ? pairTerm : words[i];
    if (definition.valueClass === 'high') mentionsHighValue = true;
    if (pair) i += 1;
  }
  return { first, mentionsHighValue };
}

export interface Categorised {
  /** What is stored, answered and filtered on as `category`: the caller's word, normalised (`scarf`). */
  category: string;
  /**
   * The category's vocabulary class (`clothing` for `scarf`; the category itself outside the vocabulary): what
   * matching compares, so a lost scarf and a found hat are still put side by side for staff.
   */
  categoryClass: string;
  /** What decides `matches` against `verify_required` and whether a release needs proof. */
  valueClass: ValueClass;
}

/**
 * The category, its class and the value class of an item or a claim. The category is the one given (normalised
 * for case and spacing), else the canonical name of the vocabulary term the description names first ("Black iPhone
 * 13" is `phone`, not `iphone`), else `other`. A guess is the vocabulary's own word, so the desk's list filtered on
 * a claim's category (`phone`) finds the item the guess filed, as matching does. The value class is the category's,
 * except that a description naming a high-value thing raises a low-value or unknown category to high ("umbrella,
 * wallet tucked in the strap"): the description can raise the class, never lower it, so an item is never shown by
 * mistake.
 */
export function categorise(given: string | null | undefined, description: string | null | undefined): Categorised {
  const read = readDescription(description);
  const guessed = read.first === undefined ? OTHER_CATEGORY : resolveCategory(read.first)!.name;
  const category = normalizeTerm(given ?? '') || guessed;
  const resolved = resolveCategory(category)!;
  const valueClass = resolved.valueClass === 'low' && read.mentionsHighValue ? 'high' : resolved.valueClass;
  return { category, categoryClass: resolved.name, valueClass };
}

/** The vocabulary's categories less the urgent ones (never taken as claims): the claimant page's and the desk's. */
export const CLAIMANT_CATEGORIES: readonly string[] = CATEGORY_DEFINITIONS.filter(
  (definition) => definition.valueClass !== 'urgent',
).map((definition) => definition.name);

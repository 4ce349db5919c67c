import { Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's second recommended setting (19 MiB, 2 passes, 1 lane): about 30 ms on one core, so a
 * sign-in costs little and a stolen hash costs a guesser the same per guess. The parameters travel in the PHC
 * string, so raising them later still verifies the old hashes.
 */
const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * Verifies against a hash of a random password, so that an unknown email takes as long to refuse as a wrong
 * password: the time of a sign-in does not tell which addresses have users.
 */
export async function verifyDecoy(password: string): Promise<false> {
  decoy ??= hashPassword(`decoy ${Math.random()} ${Date.now()}`);
  await verifyPassword(await decoy, password);
  return false;
}

import { randomBytes } from 'node:crypto';

/** A call SID as telephony providers write them: `CA` and 32 lower-case hex digits (128 random bits). */
export function newCallSid(): string {
  return `CA${randomBytes(16).toString('hex')}`;
}

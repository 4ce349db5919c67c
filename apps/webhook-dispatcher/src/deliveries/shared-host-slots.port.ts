export interface SharedSlot {
  release(): Promise<void>;
}

/** The per-host cap across every replica (PostgreSQL in the app, unlimited in unit tests). */
export interface SharedHostSlotsPort {
  /** A slot for `host` until `leaseUntil` (or its release), or undefined when every replica's share is taken. */
  tryAcquire(host: string, leaseUntil: Date): Promise<SharedSlot | undefined>;
}

export const SHARED_HOST_SLOTS = Symbol('SHARED_HOST_SLOTS');

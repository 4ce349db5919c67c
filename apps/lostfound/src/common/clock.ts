import { Injectable } from '@nestjs/common';

/**
 * The time as lostfound's rules read it (the hold period, docs/adr/0079). One injectable so a test can move it
 * (`clock.set(...)`) the way numbers-billing's billing run is given its `now`.
 */
@Injectable()
export class LostfoundClock {
  private fixed: Date | undefined;

  now(): Date {
    return this.fixed ?? new Date();
  }

  /** Tests only: read `at` until reset (undefined: the real time again). */
  set(at: Date | undefined): void {
    this.fixed = at;
  }
}

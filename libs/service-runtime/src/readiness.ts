/**
 * Whether the process still takes traffic. `runService` drains it when a signal arrives, before closing anything,
 * so `/readyz` answers 503 while in-flight work finishes and orchestrators send new work elsewhere.
 */
export class Readiness {
  private isDraining = false;

  get draining(): boolean {
    return this.isDraining;
  }

  /** From now on /readyz answers 503, so traffic stops before the process does. */
  drain(): void {
    this.isDraining = true;
  }
}

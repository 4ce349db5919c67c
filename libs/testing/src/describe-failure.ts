/** One line for a failed connection (Node reports a refused `localhost` as an AggregateError with no message). */
export function describeFailure(error: unknown): string {
  if (error instanceof AggregateError && !error.message) {
    return error.errors.map(describeFailure).join('; ');
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

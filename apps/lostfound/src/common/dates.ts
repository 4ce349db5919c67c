/** Calendar days as the API writes them: `YYYY-MM-DD`, in UTC. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A `@db.Date` value (UTC midnight) as `YYYY-MM-DD`. */
export function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` as the UTC midnight Prisma stores in a `@db.Date` column. */
export function dayToDate(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

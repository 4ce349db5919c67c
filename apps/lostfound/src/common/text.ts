/** An optional text field as stored: trimmed, empty when absent. */
export function text(value: string | null | undefined): string {
  return (value ?? '').trim();
}

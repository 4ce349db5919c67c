import { linesMatching, workspaceSources, type SourceFile } from './workspace-sources';

// ADR 0070: code opens a transaction one way, through its app's `Transactions` class (libs/persistence), whose
// `run(work, options?)` alone calls Prisma's `$transaction`. No one calls `$transaction` on a Prisma client
// directly: neither the interactive (callback) form nor the batch (array) form.

/**
 * A call of `$transaction` on something (`x.$transaction(`, `x.$transaction<T>(`, or `.$transaction(` on a chained
 * line), callback or array; not a declaration (`$transaction<R>(work: …)` in an interface) nor a comment line.
 */
const TRANSACTION_CALL = /^(?!\s*(?:\/\/|\/\*|\*)).*\.\$transaction\b\s*(?:<.*>)?\s*\(/;

/** The one file that calls `$transaction`: `Transactions.run`. */
const TRANSACTIONS = 'libs/persistence/src/transactions.ts';

/** `file:line: text` of every line calling `$transaction` directly. */
export const transactionCallLines = (files: SourceFile[]) => linesMatching(TRANSACTION_CALL, files);

describe('transactions are opened through Transactions (ADR 0070)', () => {
  it('finds direct $transaction calls, callback and array forms, not declarations, comments or run()', () => {
    const text = [
      'return this.prisma.$transaction(async (tx) => {',
      'await this.prisma.$transaction([',
      'const [a, b] = await prisma.$transaction<[number, number]>([first, second]);',
      '  .$transaction((tx) => work(tx))',
      'return this.transactions.run(async (tx) => {',
      '  $transaction<R>(work: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R>;',
      '// never this.prisma.$transaction(...): open it with this.transactions.run(...)',
      " * is Prisma's `$transaction` (libs/persistence `Transactions`), and `tx.$kysely()` runs inside it.",
    ].join('\n');
    expect(transactionCallLines([{ path: 'apps/x/src/a.ts', text }])).toEqual([
      'apps/x/src/a.ts:1: return this.prisma.$transaction(async (tx) => {',
      'apps/x/src/a.ts:2: await this.prisma.$transaction([',
      'apps/x/src/a.ts:3: const [a, b] = await prisma.$transaction<[number, number]>([first, second]);',
      'apps/x/src/a.ts:4: .$transaction((tx) => work(tx))',
    ]);
  });

  it("no app or library source calls $transaction outside Transactions (inject the app's *Transactions, call run)", () => {
    const sources = workspaceSources();
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.some(({ path }) => path === TRANSACTIONS)).toBe(true);
    const offenders = transactionCallLines(sources.filter(({ path }) => path !== TRANSACTIONS));
    if (offenders.length > 0) {
      throw new Error(
        `${offenders.length} line(s) call $transaction directly; open transactions with the app's Transactions ` +
          `class, run(work, options) (docs/adr/0070):\n${offenders.join('\n')}`,
      );
    }
  });
});

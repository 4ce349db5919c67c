import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from './no-direct-transaction.mjs';

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

const direct =
  "Open transactions through the app's Transactions class: inject it (e.g. NumbersBillingTransactions) and call " +
  '`run(work, options)`, which hands `tx` to repository methods; never `$transaction` (docs/adr/0070).';

ruleTester.run('no-direct-transaction', rule, {
  valid: [
    'return this.transactions.run(async (tx) => this.numbers.create(tx, input));',
    'await this.transactions.run((tx) => work(tx), { isolationLevel: "Serializable" });',
    // Declaring what a client has is no call of it (libs/persistence's TransactionalClient).
    'interface Client { $transaction<R>(work: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R>; }',
    '// never this.prisma.$transaction(...): open it with this.transactions.run(...)',
    "/** is Prisma's `$transaction` (libs/persistence `Transactions`), and `tx.$kysely()` runs inside it. */",
    'const fake = { $transaction: (work: (tx: unknown) => unknown) => work({}) };',
  ],
  invalid: [
    { code: 'return this.prisma.$transaction(async (tx) => {});', errors: [{ message: direct, column: 20 }] },
    { code: 'await this.prisma.$transaction([first, second]);', errors: [{ message: direct }] },
    {
      code: 'const [a, b] = await prisma.$transaction<[number, number]>([first, second]);',
      errors: [{ message: direct }],
    },
    { code: 'await this.prisma\n  .$transaction((tx) => work(tx));', errors: [{ message: direct, line: 2 }] },
    { code: "await prisma['$transaction']((tx) => work(tx));", errors: [{ message: direct }] },
    { code: 'await prisma?.$transaction((tx) => work(tx));', errors: [{ message: direct }] },
    { code: 'const open = this.prisma.$transaction.bind(this.prisma);', errors: [{ message: direct }] },
    { code: 'const { $transaction } = this.prisma;', errors: [{ message: direct }] },
  ],
});

import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import rule from './no-prisma-in-services.mjs';

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

const imports = (name: string) =>
  `A service does not import the app's Prisma client (\`${name}\`): move the queries into a repository; for a ` +
  "transaction inject the app's Transactions class and pass `tx` to the repository's methods (docs/adr/0070).";
const holds = (name: string) =>
  `A service does not hold the app's Prisma client (typed \`${name}\`): move the queries into a repository; for a ` +
  "transaction inject the app's Transactions class and pass `tx` to the repository's methods (docs/adr/0070).";

ruleTester.run('no-prisma-in-services', rule, {
  valid: [
    // The Transactions class and Tx are what a service holds.
    [
      "import { LostfoundTransactions, type Tx } from '../prisma/lostfound-prisma';",
      'class FoundItemsService {',
      '  constructor(private readonly transactions: LostfoundTransactions) {}',
      '  create(tx: Tx) {}',
      '}',
    ].join('\n'),
    "import { Prisma } from '../generated/prisma/client';\nconst none = Prisma.DbNull;",
    'type Row = NumbersBillingPrisma.Something;',
  ],
  invalid: [
    {
      code: [
        "import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';",
        'class NumbersService {',
        '  constructor(private readonly prisma: NumbersBillingPrisma) {}',
        '}',
      ].join('\n'),
      errors: [
        { message: imports('NumbersBillingPrisma'), line: 1 },
        { message: holds('NumbersBillingPrisma'), line: 3 },
      ],
    },
    {
      code: "import type { GatewayPrisma as Client } from '../prisma/gateway-prisma';",
      errors: [{ message: imports('GatewayPrisma') }],
    },
    // Wherever the class comes from (a module re-exporting it), a service typed by it holds the client.
    {
      code: 'class S { constructor(@Inject(CLIENT) private readonly client: CallsMediaPrisma) {} }',
      errors: [{ message: holds('CallsMediaPrisma') }],
    },
  ],
});

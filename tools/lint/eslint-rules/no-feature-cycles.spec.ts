import { RuleTester } from 'eslint';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import tseslint from 'typescript-eslint';
import rule from './no-feature-cycles.mjs';

// The rule reads the rest of the app from disk: a small app whose folders are
//   billing -> money, numbers -> billing, numbers -> money, orders -> numbers,
// with a spec file and a file at the root of src/ that would close cycles if they counted.
const root = mkdtempSync(join(tmpdir(), 'feature-cycles-'));
const src = join(root, 'apps', 'shop', 'src');
const files: Record<string, string> = {
  'billing/billing.service.ts': "import { cents } from '../money/money';\nexport const bill = cents;\n",
  'money/money.ts': 'export const cents = 100;\n',
  'numbers/numbers.service.ts':
    "import { bill } from '../billing/billing.service';\nimport type { Cents } from '../money';\nexport const n = bill;\n",
  'money/index.ts': 'export type Cents = number;\n',
  'orders/orders.ts': "export { n } from '../numbers/numbers.service';\n",
  'money/money.spec.ts': "import { bill } from '../billing/billing.service';\n",
  'shop.module.ts':
    "import { bill } from './billing/billing.service';\nimport { n } from './numbers/numbers.service';\n",
};
for (const [path, text] of Object.entries(files)) {
  mkdirSync(dirname(join(src, path)), { recursive: true });
  writeFileSync(join(src, path), text);
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

const cycle = (from: string, to: string, way: string) =>
  `'${from}' imports '${to}', which imports '${from}' back: ${way}. Folders under src/ import each other in one ` +
  `direction only: have '${from}' declare a port (or an after-commit hook) that '${to}' implements and the module ` +
  'binds, or move what both need into a folder of its own (docs/architecture.md).';

const ruleTester = new RuleTester({ languageOptions: { parser: tseslint.parser } });

ruleTester.run('no-feature-cycles', rule, {
  valid: [
    // One direction only: billing -> money, and money imports nothing back (its spec does, but tests do not count).
    { code: "import { cents } from '../money/money';", filename: join(src, 'billing', 'billing.service.ts') },
    // Inside one folder.
    { code: "import { cents } from './money';", filename: join(src, 'money', 'rates.ts') },
    // A file at the root of src/ wires the features together: it is no feature.
    { code: "import { bill } from './billing/billing.service';", filename: join(src, 'shop.module.ts') },
    // Importing the module file at the root of src/ makes no cycle between features.
    { code: "import { ShopModule } from '../shop.module';", filename: join(src, 'money', 'rates.ts') },
    // Not in an app's src/.
    {
      code: "import { bill } from '../billing/billing.service';",
      filename: join(root, 'libs', 'x', 'src', 'a', 'b.ts'),
    },
  ],
  invalid: [
    {
      code: "import { bill } from '../billing/billing.service';\nexport const rate = bill;",
      filename: join(src, 'money', 'rates.ts'),
      errors: [{ message: cycle('money', 'billing', 'billing -> money (billing/billing.service.ts)'), line: 1 }],
    },
    // Through a third folder, by an export-from, a dynamic import and a type-only import (types make a folder depend).
    {
      code: "export { n } from '../orders/orders';",
      filename: join(src, 'money', 'rates.ts'),
      errors: [
        {
          message: cycle(
            'money',
            'orders',
            'orders -> numbers (orders/orders.ts), numbers -> money (numbers/numbers.service.ts)',
          ),
        },
      ],
    },
    {
      code: "const orders = () => import('../orders/orders');",
      filename: join(src, 'money', 'rates.ts'),
      errors: [{ messageId: 'cycle' }],
    },
    // numbers reaches money by a type-only import of the folder's index: types make a folder depend on another too.
    {
      code: "import { n } from '../numbers/numbers.service';",
      filename: join(src, 'money', 'rates.ts'),
      errors: [{ message: cycle('money', 'numbers', 'numbers -> money (numbers/numbers.service.ts)') }],
    },
  ],
});

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// ADR 0070: services reach data through repositories. A service that needs a transaction holds its app's
// `Transactions` class and hands `tx` to repository methods; it never holds the app's Prisma client (`*Prisma`).
const root = join(__dirname, '..', '..');

/** `import { … } from '…/prisma/…'` (type-only imports included), capturing the imported names. */
const PRISMA_MODULE_IMPORT = /\bimport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'([^']*\/prisma\/[^']*)'/g;
/** A constructor parameter (or any declaration) typed as a `…Prisma` class. */
const PRISMA_TYPED = /:\s*([A-Z]\w*Prisma)\b(?!\.)/g;

function serviceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : serviceFiles(path);
    return entry.name.endsWith('.service.ts') ? [path] : [];
  });
}

/** `file: what` for each Prisma client class a service imports from its app's `prisma/` or injects. */
export function servicesHoldingPrisma(files: { path: string; text: string }[]): string[] {
  return files.flatMap(({ path, text }) => {
    const found = new Set<string>();
    for (const [, names, from] of text.matchAll(PRISMA_MODULE_IMPORT)) {
      for (const name of names.split(',').map(
        (part) =>
          part
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      )) {
        if (/^[A-Z]\w*Prisma$/.test(name)) found.add(`imports ${name} from '${from}'`);
      }
    }
    for (const [, name] of text.matchAll(PRISMA_TYPED)) found.add(`injects ${name}`);
    return [...found].map((what) => `${path}: ${what}`);
  });
}

const apps = readdirSync(join(root, 'apps'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => join(root, 'apps', entry.name, 'src'))
  .filter((src) => {
    try {
      return readdirSync(src).length > 0;
    } catch {
      return false;
    }
  });

describe('services reach data through repositories (ADR 0070)', () => {
  it('finds a service importing or injecting its Prisma client', () => {
    const text = [
      "import { NumbersBillingPrisma, type Tx } from '../prisma/numbers-billing-prisma';",
      'constructor(private readonly prisma: NumbersBillingPrisma) {}',
    ].join('\n');
    expect(servicesHoldingPrisma([{ path: 'apps/x/src/a.service.ts', text }])).toEqual([
      "apps/x/src/a.service.ts: imports NumbersBillingPrisma from '../prisma/numbers-billing-prisma'",
      'apps/x/src/a.service.ts: injects NumbersBillingPrisma',
    ]);
  });

  it('allows the Transactions class and Tx', () => {
    const text = [
      "import { LostfoundTransactions, type Tx } from '../prisma/lostfound-prisma';",
      'constructor(private readonly transactions: LostfoundTransactions) {}',
    ].join('\n');
    expect(servicesHoldingPrisma([{ path: 'apps/x/src/a.service.ts', text }])).toEqual([]);
  });

  it('no *.service.ts in apps/*/src holds the app Prisma client', () => {
    const files = apps
      .flatMap(serviceFiles)
      .map((file) => ({ path: relative(root, file).split('\\').join('/'), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(10);
    const offenders = servicesHoldingPrisma(files);
    if (offenders.length > 0) {
      const services = new Set(offenders.map((line) => line.split(':')[0])).size;
      throw new Error(
        `${services} service(s) hold the Prisma client; move the queries into a repository:\n${offenders.join('\n')}`,
      );
    }
  });
});

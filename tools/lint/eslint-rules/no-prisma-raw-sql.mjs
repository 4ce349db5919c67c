// ADR 0070, 0135: hand-written SQL is Kysely over the generated table types, run through the app's Prisma client
// (`$kysely()`, or `tx.$kysely()` in a transaction). Prisma's raw-query API and its SQL fragments answer untyped rows
// that hand-written interfaces then describe, so they stay out of the code: libs/persistence's Kysely driver
// (libs/persistence/src/kysely.ts) is the one caller of the raw path, and eslint.config.mjs lets that file alone.
import { isDestructured, propertyName } from './names.mjs';

/** `$queryRaw`, `$executeRaw`, and every longer form: `$queryRawUnsafe`, `$executeRawUnsafe`, `$queryRawTyped`. */
const RAW_QUERY = /^\$(queryRaw|executeRaw)/;
/** The `Prisma` namespace's SQL fragment builders, which exist to feed the raw-query API. */
const FRAGMENTS = new Set(['sql', 'raw', 'join', 'empty']);

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbid Prisma's raw SQL API ($queryRaw, $executeRaw, their Unsafe forms, Prisma.sql)" },
    schema: [],
    messages: {
      rawQuery:
        "`{{name}}` is Prisma's raw SQL API (untyped rows). Write the statement with Kysely and run it on the " +
        "client's or the transaction's `$kysely()` (docs/adr/0135).",
      fragment:
        "`Prisma.{{name}}` builds SQL for Prisma's raw API. Write the statement with Kysely (its `sql` template for " +
        'what the query builder cannot say) and run it on `$kysely()` (docs/adr/0135).',
    },
  },
  create(context) {
    return {
      MemberExpression(node) {
        const name = propertyName(node);
        if (name === undefined) return;
        if (RAW_QUERY.test(name)) context.report({ node: node.property, messageId: 'rawQuery', data: { name } });
        else if (node.object.type === 'Identifier' && node.object.name === 'Prisma' && FRAGMENTS.has(name)) {
          context.report({ node, messageId: 'fragment', data: { name } });
        }
      },
      Property(node) {
        const name = propertyName(node);
        if (isDestructured(node) && name !== undefined && RAW_QUERY.test(name)) {
          context.report({ node: node.key, messageId: 'rawQuery', data: { name } });
        }
      },
    };
  },
};

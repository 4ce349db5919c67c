// ADR 0070: code opens a transaction one way, through its app's `Transactions` class (libs/persistence), whose
// `run(work, options?)` alone calls Prisma's `$transaction` (eslint.config.mjs lets libs/persistence/src/transactions.ts
// alone). No one else calls `$transaction` on a Prisma client, in the interactive (callback) form or the batch (array)
// form, nor takes the method off the client to call later.
import { isDestructured, propertyName } from './names.mjs';

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbid `$transaction` on a Prisma client outside libs/persistence's Transactions" },
    schema: [],
    messages: {
      direct:
        "Open transactions through the app's Transactions class: inject it (e.g. NumbersBillingTransactions) and " +
        'call `run(work, options)`, which hands `tx` to repository methods; never `$transaction` (docs/adr/0070).',
    },
  },
  create(context) {
    return {
      MemberExpression(node) {
        if (propertyName(node) === '$transaction') context.report({ node: node.property, messageId: 'direct' });
      },
      Property(node) {
        if (isDestructured(node) && propertyName(node) === '$transaction') {
          context.report({ node: node.key, messageId: 'direct' });
        }
      },
    };
  },
};

// ADR 0070: services reach data through repositories. A service that needs a transaction holds its app's
// `Transactions` class and hands `tx` to repository methods; it never holds the app's Prisma client (the `…Prisma`
// class of the app's prisma/ folder, e.g. NumbersBillingPrisma). eslint.config.mjs applies this to `*.service.ts`.

/** An app's Prisma client class: `NumbersBillingPrisma`, `LostfoundPrisma` (not Prisma's own `Prisma` namespace). */
const APP_PRISMA = /^[A-Z]\w*Prisma$/;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbid a service from importing or injecting its app's Prisma client" },
    schema: [],
    messages: {
      imports:
        "A service does not import the app's Prisma client (`{{name}}`): move the queries into a repository; for a " +
        "transaction inject the app's Transactions class and pass `tx` to the repository's methods (docs/adr/0070).",
      holds:
        "A service does not hold the app's Prisma client (typed `{{name}}`): move the queries into a repository; for " +
        "a transaction inject the app's Transactions class and pass `tx` to the repository's methods (docs/adr/0070).",
    },
  },
  create(context) {
    return {
      ImportSpecifier(node) {
        const name = node.imported.type === 'Identifier' ? node.imported.name : node.imported.value;
        if (APP_PRISMA.test(name)) context.report({ node, messageId: 'imports', data: { name } });
      },
      // A declaration typed as the client (`private readonly prisma: NumbersBillingPrisma`), wherever the type comes
      // from; `NumbersBillingPrisma.Something` names a type inside it, not the client.
      TSTypeReference(node) {
        if (node.typeName.type === 'Identifier' && APP_PRISMA.test(node.typeName.name)) {
          context.report({ node, messageId: 'holds', data: { name: node.typeName.name } });
        }
      },
    };
  },
};

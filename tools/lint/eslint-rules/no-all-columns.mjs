// Statements name their columns. Every statement is a prepared statement on PostgreSQL (libs/persistence
// `preparedStatementNames`), and one whose result columns change under it (`*` after an expand migration added a
// column, while older replicas still run) fails with "cached plan must not change result type" (docs/operations.md).

/** Kysely's all-columns methods. */
const KYSELY_ALL = new Set(['selectAll', 'returningAll']);
/**
 * `*` or `t.*` after SELECT or RETURNING, or `t.*` later in a column list, in SQL text (a string or a template's
 * text): the SQL inside a string is no syntax tree of ours, so a pattern reads it. Not `count(*)`.
 */
const ALL_COLUMNS = /\b(?:SELECT|RETURNING)\s+(?:\w+\.)?\*|,\s*\w+\.\*/i;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: "Forbid selecting or returning all columns (`*`, `t.*`, Kysely's selectAll/returningAll)" },
    schema: [],
    messages: {
      kysely:
        '`{{name}}()` takes every column, and a prepared statement must not change its result columns when a ' +
        'migration adds one: name them (`{{instead}}([...])`, docs/operations.md).',
      sql:
        '`{{text}}` takes every column, and a prepared statement must not change its result columns when a ' +
        'migration adds one: name them (docs/operations.md).',
    },
  },
  create(context) {
    const checkText = (node, text) => {
      const found = ALL_COLUMNS.exec(text);
      if (found) context.report({ node, messageId: 'sql', data: { text: found[0].replace(/\s+/g, ' ') } });
    };
    return {
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return;
        const name = callee.property.name;
        if (KYSELY_ALL.has(name)) {
          context.report({
            node: callee.property,
            messageId: 'kysely',
            data: { name, instead: name === 'selectAll' ? 'select' : 'returning' },
          });
        }
      },
      Literal(node) {
        if (typeof node.value === 'string') checkText(node, node.value);
      },
      TemplateElement(node) {
        checkText(node, node.value.cooked ?? node.value.raw);
      },
    };
  },
};

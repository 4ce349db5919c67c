// Switchboard's own ESLint rules: architecture decisions about the source code that a reviewer would otherwise have to
// catch. eslint.config.mjs registers the plugin as `switchboard` and says where each rule applies; each rule's spec
// (RuleTester) sits beside it.
import noAllColumns from './no-all-columns.mjs';
import noDirectTransaction from './no-direct-transaction.mjs';
import noFeatureCycles from './no-feature-cycles.mjs';
import noPrismaInServices from './no-prisma-in-services.mjs';
import noPrismaRawSql from './no-prisma-raw-sql.mjs';

export default {
  meta: { name: 'switchboard' },
  rules: {
    'no-all-columns': noAllColumns,
    'no-direct-transaction': noDirectTransaction,
    'no-feature-cycles': noFeatureCycles,
    'no-prisma-in-services': noPrismaInServices,
    'no-prisma-raw-sql': noPrismaRawSql,
  },
};

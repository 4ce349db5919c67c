// Runs the Stripe stand-in beside `npm start`, so a person can watch an auto-top-up go through Stripe's shape of
// API without an account: `node -r ./libs/testing/src/ts-register.cjs test/stand-ins/stripe/main.ts [acct_...]`, then
// start the system with STRIPE_SECRET_KEY and STRIPE_API_BASE_URL as printed (docs/providers.md).
import { StripeStandIn } from './stripe-stand-in';

const accounts = process.argv.slice(2);
const standIn = new StripeStandIn();
void standIn.start(Number(process.env.STRIPE_STAND_IN_PORT ?? 12111)).then((url) => {
  for (const account of accounts) standIn.addCustomer(account);
  console.log(`Stripe stand-in on ${url}`);
  console.log(`  STRIPE_SECRET_KEY=${standIn.secretKey} STRIPE_API_BASE_URL=${url}`);
  if (accounts.length) console.log(`  customers with a card on file: ${accounts.join(', ')}`);
  else console.log('  pass account ids as arguments to give them a customer with a card on file');
});

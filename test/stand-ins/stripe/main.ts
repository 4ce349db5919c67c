// Runs the Stripe stand-in beside `npm start`, so a person can watch an auto-top-up go through Stripe's shape of
// API without an account: `node -r ./libs/testing/src/ts-register.cjs test/stand-ins/stripe/main.ts [acct_...]`, then
// start the system with STRIPE_SECRET_KEY and STRIPE_API_BASE_URL as printed (docs/providers.md).
import { StripeStandIn } from './stripe-stand-in';

const accounts = process.argv.slice(2);
const standIn = new StripeStandIn();
// Its Checkout page sends `checkout.session.completed`, signed, to the gateway (docs/adr/0131).
standIn.webhookSecret = process.env.STRIPE_WEBHOOK_SECRET || undefined;
standIn.webhookUrl = process.env.STRIPE_STAND_IN_WEBHOOK_URL || 'http://127.0.0.1:3000/provider-webhooks/stripe';
void standIn.start(Number(process.env.STRIPE_STAND_IN_PORT ?? 12111)).then((url) => {
  for (const account of accounts) standIn.addCustomer(account);
  console.log(`Stripe stand-in on ${url}`);
  console.log(`  STRIPE_SECRET_KEY=${standIn.secretKey} STRIPE_API_BASE_URL=${url}`);
  if (standIn.webhookSecret)
    console.log(`  Checkout's events go to ${standIn.webhookUrl} (STRIPE_WEBHOOK_SECRET=${standIn.webhookSecret})`);
  else console.log("  set STRIPE_WEBHOOK_SECRET (the gateway's too) for Checkout to send its events");
  if (accounts.length) console.log(`  customers with a card on file: ${accounts.join(', ')}`);
  else console.log('  pass account ids as arguments to give them a customer with a card on file');
});

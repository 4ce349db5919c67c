// Runs the Retell stand-in beside `npm start`, so a person can watch agents made for live numbers without a Retell
// account: `node -r ./libs/testing/src/ts-register.cjs test/stand-ins/retell/main.ts`, then start the system with
// the variables it prints (docs/providers.md).
import { RetellStandIn } from './retell-stand-in';

const standIn = new RetellStandIn();
void standIn.start(Number(process.env.RETELL_STAND_IN_PORT ?? 12113)).then((url) => {
  console.log(`Retell stand-in on ${url}`);
  console.log(`  RETELL_API_KEY=${standIn.apiKey} RETELL_API_BASE_URL=${url} (and PUBLIC_BASE_URL for the webhooks)`);
});

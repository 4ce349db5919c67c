// Runs the Twilio stand-in beside `npm start`, so a person can watch numbers bought and texts sent in Twilio's shape
// of API without an account: `node -r ./libs/testing/src/ts-register.cjs test/stand-ins/twilio/main.ts [area codes]`,
// then start the system with the variables it prints (docs/providers.md).
import { TwilioStandIn } from './twilio-stand-in';

const areaCodes = process.argv.slice(2).length ? process.argv.slice(2) : ['415', '212'];
const standIn = new TwilioStandIn();
for (const areaCode of areaCodes) standIn.stock(areaCode, 20);
void standIn.start(Number(process.env.TWILIO_STAND_IN_PORT ?? 12112)).then((url) => {
  console.log(`Twilio stand-in on ${url}, 20 numbers for sale in ${areaCodes.join(', ')}`);
  console.log(
    `  TWILIO_ACCOUNT_SID=${standIn.accountSid} TWILIO_AUTH_TOKEN=${standIn.authToken} TWILIO_API_BASE_URL=${url}`,
  );
  console.log('  and PUBLIC_BASE_URL=http://127.0.0.1:3000 for the gateway; LOSTFOUND_SMS_PROVIDER=twilio for texts');
});

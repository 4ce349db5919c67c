import { luhnValid, PII_KINDS, redactPii } from './pii-redaction';

/** What callers and agents say, as a transcript or a summary writes it, and what `no_pii` stores instead. */
const REDACTED: [string, string][] = [
  // phone
  ['You can call me back at (415) 555-0199.', 'You can call me back at [redacted:phone].'],
  ['My cell is 415-555-0199, that is the best one.', 'My cell is [redacted:phone], that is the best one.'],
  ['Caller number: +14155550199', 'Caller number: [redacted:phone]'],
  ['It is 415.555.0199.', 'It is [redacted:phone].'],
  ['Text me at 4155550199 when it is ready.', 'Text me at [redacted:phone] when it is ready.'],
  ['The office line is 1-415-555-0199.', 'The office line is [redacted:phone].'],
  ['Reach her on +1 (212) 555-0147 after six.', 'Reach her on [redacted:phone] after six.'],
  ['My husband is at 1 212 555 0147.', 'My husband is at [redacted:phone].'],
  ['Yeah, 212 555 0147.', 'Yeah, [redacted:phone].'],
  ['Call (646)555-0123 or 646-555-0188.', 'Call [redacted:phone] or [redacted:phone].'],
  ['The number is +1-718-555-0110 ext 12.', 'The number is [redacted:phone] ext 12.'],
  ['Work phone 14155550199, home 16505550123.', 'Work phone [redacted:phone], home [redacted:phone].'],
  ['My UK number is +442071838750.', 'My UK number is [redacted:phone].'],
  ['Or the London office, +44 20 7183 8750.', 'Or the London office, [redacted:phone].'],
  ['Sure, it is four one five, five five five, zero one nine nine.', 'Sure, it is [redacted:phone].'],
  ['My number is four one five five five five oh one nine nine', 'My number is [redacted:phone]'],
  ['Call me on 415 five five five 0199 please.', 'Call me on [redacted:phone] please.'],
  ['It is 4 1 5 5 5 5 0 1 9 9.', 'It is [redacted:phone].'],
  ['Six five oh, double five five, oh one two three.', '[redacted:phone].'],
  ['It is one, two one two, five five five, zero one four seven.', 'It is [redacted:phone].'],
  ["It's two, four one five five five five zero one nine nine.", "It's two, [redacted:phone]."],
  ['four one five five five five zero one nine nine, one more thing', '[redacted:phone], one more thing'],
  [
    'Agent: I have your number as 415-555-0199, correct? Caller: Yes.',
    'Agent: I have your number as [redacted:phone], correct? Caller: Yes.',
  ],
  [
    'Summary: caller asked to be called back at (415) 555-0199.',
    'Summary: caller asked to be called back at [redacted:phone].',
  ],
  // email
  ['My email is jane.doe@example.com.', 'My email is [redacted:email].'],
  ['Send it to JOHN_SMITH+orders@Mail.Example.co.uk thanks', 'Send it to [redacted:email] thanks'],
  ['It is bob@acme-plumbing.com, b-o-b.', 'It is [redacted:email], b-o-b.'],
  ['Email 4155550199@vtext.com works too.', 'Email [redacted:email] works too.'],
  ['Yes, it is jane dot doe at gmail dot com.', 'Yes, it is [redacted:email].'],
  ['My email is mike underscore r at yahoo dot com', 'My email is [redacted:email]'],
  ['Write to frontdesk at bayviewdental.com please', 'Write to [redacted:email] please'],
  ['It is sam.lee at outlook dot com', 'It is [redacted:email]'],
  ['(email: a.b@c.io)', '(email: [redacted:email])'],
  [
    'Summary: confirm the booking by e-mail to maria.g@example.org.',
    'Summary: confirm the booking by e-mail to [redacted:email].',
  ],
  // card
  ['The card is 4111 1111 1111 1111.', 'The card is [redacted:card].'],
  ['Card number 4111-1111-1111-1111, expires 12/27.', 'Card number [redacted:card], expires 12/27.'],
  ['Use 5555555555554444 please', 'Use [redacted:card] please'],
  ['It is an Amex, 3782 822463 10005.', 'It is an Amex, [redacted:card].'],
  ['Discover 6011 1111 1111 1117', 'Discover [redacted:card]'],
  ['Diners card 3056 9309 0259 04 ok', 'Diners card [redacted:card] ok'],
  ['Old Visa 4222222222222.', 'Old Visa [redacted:card].'],
  ['4111 1111 1111 1111 12 27 and the code is 123', '[redacted:card] 12 27 and the code is 123'],
  ['Four one one one, one one one one, one one one one, one one one one.', '[redacted:card].'],
  ['It is 5105 1051 0510 5100, exp 03/29', 'It is [redacted:card], exp 03/29'],
  ['My card 4 0 1 2 8 8 8 8 8 8 8 8 1 8 8 1', 'My card [redacted:card]'],
  // ssn
  ['My social is 123-45-6789.', 'My social is [redacted:ssn].'],
  ['SSN 123 45 6789 for the application', 'SSN [redacted:ssn] for the application'],
  ['Social security number is 078-05-1120', 'Social security number is [redacted:ssn]'],
  ['It is 455-12-0001, I think.', 'It is [redacted:ssn], I think.'],
  ['My social is one two three four five six seven eight nine.', 'My social is [redacted:ssn].'],
  ['The last one was 219-09-9999.', 'The last one was [redacted:ssn].'],
  // address
  ['I live at 1234 Main Street in Springfield.', 'I live at [redacted:address] in Springfield.'],
  ['Deliver to 742 Evergreen Terrace.', 'Deliver to [redacted:address].'],
  ['The address is 55 W. 3rd Ave Apt 4, New York.', 'The address is [redacted:address], New York.'],
  ['Mail it to PO Box 123, Austin TX 78701.', 'Mail it to [redacted:address], Austin TX 78701.'],
  ['Ship to P.O. Box 9876', 'Ship to [redacted:address]'],
  ['Send it to post office box 42.', 'Send it to [redacted:address].'],
  ['We are at 1600 Pennsylvania Avenue NW.', 'We are at [redacted:address].'],
  ['The shop is 350 5th Avenue, Suite 200.', 'The shop is [redacted:address].'],
  ['Pick up at 10 Downing St.', 'Pick up at [redacted:address].'],
  ['1 Infinite Loop, Cupertino', '[redacted:address], Cupertino'],
  ['Our office: 123 Martin Luther King Jr Blvd, Unit 5', 'Our office: [redacted:address]'],
  ['It is 4521 Oak Ridge Dr. Apt. 12B.', 'It is [redacted:address].'],
  ['My place is 88 Ocean Pkwy #3', 'My place is [redacted:address]'],
  ['She moved to 19 St. Mark’s Place', 'She moved to [redacted:address]'],
  ['The job site is 2200 Lakeshore Blvd W', 'The job site is [redacted:address]'],
  ['Address: 12 Elm st', 'Address: [redacted:address]'],
  ['The house is at 57 Old Mill Rd, the blue one.', 'The house is at [redacted:address], the blue one.'],
  [
    'Summary: technician to visit 901 Cedar Lane on Friday at 9:00.',
    'Summary: technician to visit [redacted:address] on Friday at 9:00.',
  ],
  // several at once
  [
    'Name is Ana, 415-555-0199, ana@example.com, 22 Baker Street, card 4111 1111 1111 1111.',
    'Name is Ana, [redacted:phone], [redacted:email], [redacted:address], card [redacted:card].',
  ],
];

/** Numbers and words that are not PII and stay as they are. */
const KEPT: string[] = [
  'Your order number is 88123.',
  'Order #A-55812 ships tomorrow.',
  'The total comes to $1,234.56.',
  'That is 12.99 plus tax.',
  'See you at 5:30.',
  'The appointment is on 12/03/2026.',
  'Booked for 2026-12-03 at 10:15.',
  'Can I get 2 large pizzas and 3 sodas?',
  'My zip is 94110.',
  'Zip code 94110-1234.',
  'We opened back in 2019.',
  'Between 2019 and 2026 we moved twice.',
  'It is a card like 4111 1111 1111 1112, that one failed.',
  'Reference 4111111111111112.',
  'Ref 1234 5678 1234 5678.',
  'We are on Main Street near the park.',
  'Turn left on 3rd Avenue.',
  'I am in room 305.',
  'Suite 200 is on the second floor.',
  'It is a 5 minute drive from here.',
  'There is a 2 way street by the school.',
  'I will be there at 5 on the way home.',
  'Go down Highway 101 and take exit 12.',
  'The invalid one 000-12-3456 was rejected.',
  'Not an SSN: 666-12-3456.',
  'Nor 912-34-5678.',
  'Nor 123-00-4567.',
  'Nor 123-45-0000.',
  'Account 123456789.',
  'Call 1234567890 is not a number anyone has.',
  'The number 123-456-7890 in the example.',
  'I need 1 of those, 2 of these.',
  'Version 2.4.1 of the app.',
  'It costs 19.99, 24.99 or 29.99.',
  'The code is 4821.',
  'Press one for sales, two for support.',
  'I have two kids, one dog and three cats.',
  'Oh, one more thing.',
  'Table for four at seven thirty.',
  'Look it up at example dot com.',
  'Find us online at bayviewdental dot com.',
  'Meet me at noon.',
  'Email me at any time.',
  'The @ sign and the dot.',
  'Five stars, would order again!',
  'Your confirmation is 72A9-XK3.',
  'I was charged 4 times: 12.50, 12.50, 12.50 and 12.50.',
  'From 9 to 5, Monday to Friday.',
];

/**
 * PII that passes through as it is (or partly): pinned here so docs/pii-redaction.md and the code say the same.
 * [what was said, what is stored, why]
 */
const KNOWN_MISSES: [string, string, string][] = [
  ['Call me at 555-0199.', 'Call me at 555-0199.', 'seven-digit local numbers look like ids'],
  [
    'It is four fifteen, five five five, oh one ninety nine.',
    'It is four fifteen, five five five, oh one ninety nine.',
    'tens ("fifteen", "ninety nine") are not read as digits',
  ],
  ['Call 1-800-FLOWERS.', 'Call 1-800-FLOWERS.', 'letters in a number'],
  ['My social is 123456789.', 'My social is 123456789.', 'an SSN without separators looks like any 9-digit id'],
  ['I live at 1234 main street.', 'I live at 1234 main street.', 'a street name in lower case'],
  ['The store is at 1585 Broadway.', 'The store is at 1585 Broadway.', 'a street without a suffix'],
  ['I am at twelve thirty four Main Street.', 'I am at twelve thirty four Main Street.', 'a house number in words'],
  [
    'It is jane doe at gmail dot com.',
    'It is jane [redacted:email].',
    'a spoken local part of two words keeps its first one',
  ],
  [
    'Card 41111111111111111227 exp included',
    'Card 41111111111111111227 exp included',
    'a card run together with its expiry has no group to split at',
  ],
  ['It is +44 (0)20 7183 8750.', 'It is +44 (0)20 7183 8750.', 'an international number with a bracketed trunk 0'],
  [
    'Call eight hundred, five five five, one two one two.',
    'Call eight hundred, five five five, one two one two.',
    'hundreds ("eight hundred") are not read as digits',
  ],
];

/** Text that is not PII but is redacted: [what was said, what is stored, why]. */
const KNOWN_FALSE_POSITIVES: [string, string, string][] = [
  [
    'Your order number is 4155550199.',
    'Your order number is [redacted:phone].',
    'a 10-digit id shaped like a US number',
  ],
  [
    'Tracking 9400 1118 9922 3392 1234 56.',
    'Tracking [redacted:card] 1234 56.',
    'a long number whose leading groups pass the Luhn check',
  ],
  [
    'We have 2 Main Street locations.',
    'We have [redacted:address] locations.',
    'a count before a capitalized street name',
  ],
  [
    'Get tickets at ticketmaster dot com.',
    'Get [redacted:email].',
    'a spoken site address after a word that could be a mailbox',
  ],
  [
    'The gate code is 1 2 3 4 5 6 7 8 9.',
    'The gate code is [redacted:ssn].',
    'nine digits said one by one that make an SSN that could be issued',
  ],
];

describe('redactPii', () => {
  it.each(REDACTED)('redacts %j', (text, expected) => {
    expect(redactPii(text)).toBe(expected);
  });

  it.each(KEPT)('keeps %j', (text) => {
    expect(redactPii(text)).toBe(text);
  });

  it.each(KNOWN_MISSES)('misses %j (stored as %j: %s)', (text, stored) => {
    expect(redactPii(text)).toBe(stored);
  });

  it.each(KNOWN_FALSE_POSITIVES)('over-redacts %j (stored as %j: %s)', (text, stored) => {
    expect(redactPii(text)).toBe(stored);
  });

  it('covers every kind it names', () => {
    const kinds = new Set(REDACTED.flatMap(([, out]) => [...out.matchAll(/\[redacted:(\w+)\]/g)].map((m) => m[1])));
    expect([...kinds].sort()).toEqual([...PII_KINDS].sort());
  });

  it('leaves text without PII byte for byte, whitespace and all', () => {
    const text = 'Hi!\r\n  Two   large\tpizzas, ×2 — “thanks” 🙂\n';
    expect(redactPii(text)).toBe(text);
  });

  it('leaves the empty string empty', () => {
    expect(redactPii('')).toBe('');
  });
});

describe('luhnValid', () => {
  it.each(['4111111111111111', '378282246310005', '6011111111111117', '30569309025904', '0'])(
    'accepts %s',
    (digits) => {
      expect(luhnValid(digits)).toBe(true);
    },
  );

  it.each(['4111111111111112', '1234567812345678', '4111 1111 1111 1111', '', 'abc'])('rejects %j', (digits) => {
    expect(luhnValid(digits)).toBe(false);
  });
});

// The calls benchmark's corpus (bench/calls-search.mjs): the calls of a busy restaurant and pizzeria's phone agent,
// generated deterministically. Call k of a batch is the same whatever was generated before it (each call draws from
// its own random stream, seeded by the batch's seed and k), so a run seeds the same rows as the last one and a batch
// can be generated in any order or in parts.
//
// The words follow a Zipf-like law: every slot of a sentence (a dish, a topping, a street, a surname, ...) picks from
// its list with weight 1/rank^s, and the sentences themselves are picked the same way, so a few words are in most
// calls ("pizza", "order") and the long tail of generated surnames and streets is in a handful each. Call
// attributes follow skewed, realistic shares (outcomes, sentiment with about 10% negative, ~60% recorded, durations
// skewed short, callers from a pool of 50,000 numbers of which a few call often). Start times rise with k across
// the batch's span (as calls arrive), peaking at lunch and dinner within each day.
import { mulberry32 } from './random.mjs';

// ------------------------------------------------------------------------------------------------ randomness
/** A 32-bit seed for item `index` of a stream seeded with `seed` (murmur3's finaliser over both). */
export function mixSeed(seed, index) {
  let h = (seed >>> 0) ^ Math.imul(index + 1, 0x9e3779b1);
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The index of the first cumulative weight above `x` (binary search). */
function firstAbove(cumulative, x) {
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (cumulative[mid] > x) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** A picker of `items` by a Zipf-like law: the item of rank r (from 1) with weight 1 / r^s. `pick(rand)`. */
export function zipf(items, s = 1) {
  if (items.length === 0) throw new Error('zipf over no items');
  const cumulative = new Float64Array(items.length);
  let total = 0;
  for (let rank = 1; rank <= items.length; rank += 1) {
    total += 1 / rank ** s;
    cumulative[rank - 1] = total;
  }
  const pick = (rand) => items[firstAbove(cumulative, rand() * total)];
  /** The share of draws that give the item of this rank (from 1). */
  pick.share = (rank) => 1 / rank ** s / total;
  pick.items = items;
  return pick;
}

/** A picker by explicit weights: `[[value, weight], ...]` (weights need not sum to 1). */
export function weighted(pairs) {
  const cumulative = new Float64Array(pairs.length);
  let total = 0;
  pairs.forEach(([, weight], i) => {
    total += weight;
    cumulative[i] = total;
  });
  return (rand) => pairs[firstAbove(cumulative, rand() * total)][0];
}

// ------------------------------------------------------------------------------------------------ vocabulary
/** Made-up words from syllables, unique, in a fixed order: the long tail (surnames, streets). */
function madeUpWords(count, seed, syllables) {
  const rand = mulberry32(seed);
  const onsets = 'b br c ch d dr f g gr h k l m n p r s st t v w z'.split(' ');
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
  const codas = ['', 'n', 'r', 'l', 's', 'x', 'k', 'm', 'nd', 'rt', 'sk', 'll', 'tt'];
  const words = new Set();
  while (words.size < count) {
    let word = '';
    for (let n = 0; n < syllables; n += 1)
      word += onsets[Math.floor(rand() * onsets.length)] + vowels[Math.floor(rand() * vowels.length)];
    word += codas[Math.floor(rand() * codas.length)];
    words.add(word[0].toUpperCase() + word.slice(1));
  }
  return [...words];
}

/** 20,000 surnames (three syllables): words that no dictionary has, most of them in very few calls. */
export const SURNAMES = madeUpWords(20_000, 0x5eed_0001, 3);
const STREET_STEMS = madeUpWords(2_500, 0x5eed_0002, 2);
const STREET_KINDS = ['Street', 'Avenue', 'Road', 'Lane', 'Drive', 'Court', 'Way', 'Place', 'Boulevard', 'Terrace'];
const STREETS = STREET_STEMS.map((stem, i) => `${stem} ${STREET_KINDS[i % STREET_KINDS.length]}`);

const FIRST_NAMES = (
  'Maria James Emma Michael Olivia David Sophia Daniel Mia Jose Ava Chris Isabella Kevin Grace Luis Chloe Brian ' +
  'Hannah Anthony Ella Mark Lily Steven Zoe Paul Nora Andrew Leah Josh Ruby Ryan Alice Eric Clara Jason Ivy Matt ' +
  'Sara Nick Maya Tony Lucy Sam Rosa Ben Anna Carlos Jade Omar Elena Raj Priya Wei Mei Hiro Yuki Ahmed Fatima Ivan ' +
  'Olga Pedro Lucia Tariq Amara Kofi Nia Sean Aoife Lars Ingrid Pierre Camille Marco Giulia Dmitri Katya Tomas ' +
  'Beatriz Arjun Ananya Kenji Sakura Malik Zara Felix Greta Hugo Elsa Oscar Frida Ravi Leila Diego Paloma Andre Ines'
).split(' ');

const PIZZAS = (
  'pepperoni pizza, margherita, cheese pizza, meat lovers, veggie supreme, hawaiian, bbq chicken pizza, ' +
  'buffalo chicken pizza, white pizza, four cheese, sicilian square, sausage and peppers pie, marinara pie, ' +
  'diavola, capricciosa, prosciutto and arugula, truffle mushroom pizza, clam pie, detroit style, ' +
  'quattro stagioni, calzone, stromboli'
).split(', ');
const SIDES = (
  'garlic knots, chicken wings, caesar salad, mozzarella sticks, garlic bread, fries, house salad, meatball sub, ' +
  'chicken parm sub, baked ziti, penne vodka, lasagna, spaghetti carbonara, fettuccine alfredo, ' +
  'eggplant parmesan, minestrone, bruschetta, antipasto platter, arancini, gnocchi, tiramisu, cannoli, gelato, ' +
  'panna cotta'
).split(', ');
const TOPPINGS = (
  'extra cheese, mushrooms, onions, sausage, olives, green peppers, bacon, jalapenos, pineapple, ham, spinach, ' +
  'ricotta, fresh basil, meatballs, roasted garlic, banana peppers, anchovies, artichokes, sun dried tomatoes, ' +
  'feta, hot honey, goat cheese, chorizo, broccoli rabe, pesto, capers, eggplant, zucchini'
).split(', ');
const SIZES = ['large', 'medium', 'extra large', 'small', 'family size', 'personal'];
const DRINKS = (
  'two liter coke, sprite, lemonade, iced tea, diet coke, sparkling water, root beer, ginger ale, ' +
  'bottle of chianti, six pack of peroni'
).split(', ');
const DIETS = ['gluten free', 'vegan', 'vegetarian', 'dairy free', 'nut free', 'keto', 'low sodium', 'halal'];
const ALLERGENS = ['nuts', 'dairy', 'gluten', 'shellfish', 'eggs', 'sesame', 'soy', 'peanuts'];
const DAYS = (
  'tonight, today, tomorrow, Friday, Saturday, Sunday, this weekend, Thursday, Monday, Wednesday, Tuesday, ' +
  'next week'
).split(', ');
const TIMES = ['7 pm', '6:30', '7:30', '8 pm', '6 pm', 'noon', '12:30', '1 pm', '5:30', '8:30', '9 pm', '11:30'];
const PLACES = (
  'downtown, the Mission, North Beach, Noe Valley, SoMa, the Marina, Hayes Valley, Potrero Hill, the Sunset, ' +
  'the Richmond, Dogpatch, Bernal Heights, Glen Park, the Excelsior, Daly City'
).split(', ');
const SERVICES = (
  'delivery, pickup, catering, outdoor seating, a private room, gift cards, happy hour, the lunch special, ' +
  'parking, a kids menu, curbside pickup, online ordering, the loyalty program, live music, wheelchair access, ' +
  'high chairs, corkage, a party platter'
).split(', ');
const OCCASIONS = (
  'a birthday, an anniversary, a team lunch, a graduation party, an office party, a baby shower, ' +
  'a soccer team dinner, a retirement party, a rehearsal dinner, a book club, a memorial reception, ' +
  'a bar mitzvah, a quinceanera, a fundraiser'
).split(', ');
const COMPLAINTS = (
  'the pizza arrived cold, my order was missing the wings, the driver was really late, I was charged twice, ' +
  'the crust was burnt, they put the wrong toppings on, the delivery never came, the salad had a hair in it, ' +
  'the app crashed at checkout, the coupon did not work, the box was crushed, the order was given to someone else'
).split(', ');
const PAYMENTS = ['card', 'cash', 'Apple Pay', 'a gift card', 'Google Pay', 'Venmo'];
const DETAILS = [
  'please ring the doorbell',
  "it's for my kid's birthday",
  'we are kind of in a hurry',
  'cut it in squares please',
  'well done, extra crispy',
  'light on the sauce',
  'no plastic utensils please',
  'the gate code is pound four two',
  'leave it with the doorman',
  'call me when you are outside',
  'can you add extra napkins',
  'we have a dog so knock loudly',
  'my building has no elevator',
  'sauce on the side',
  'can you make it half and half',
  'we are at the blue house on the corner',
  'I have a coupon from the mailer',
  'my friend recommended you',
  'I saw your sign on the way home',
  'we ordered the same thing last week',
  'put the dressing on the side',
  'one of us is allergic to shrimp',
  'is the oven still on',
  'my wife loved it last time',
  'we will be there in ten minutes',
];

// Slots that keep their value for the whole call (the caller's name, the order's size...); others draw afresh.
const STICKY = new Set(['first', 'surname', 'street', 'party', 'day', 'time', 'price', 'minutes', 'size', 'pizza']);
const SLOTS = {
  first: zipf(FIRST_NAMES, 0.9),
  surname: zipf(SURNAMES, 1),
  street: zipf(STREETS, 1),
  pizza: zipf(PIZZAS, 1),
  side: zipf(SIDES, 1),
  topping: zipf(TOPPINGS, 1),
  size: zipf(SIZES, 1.2),
  drink: zipf(DRINKS, 1),
  diet: zipf(DIETS, 1.1),
  allergen: zipf(ALLERGENS, 1),
  day: zipf(DAYS, 0.8),
  time: zipf(TIMES, 0.8),
  place: zipf(PLACES, 1),
  service: zipf(SERVICES, 1),
  occasion: zipf(OCCASIONS, 1),
  complaint: zipf(COMPLAINTS, 0.9),
  payment: zipf(PAYMENTS, 1.2),
  detail: zipf(DETAILS, 1),
  business: zipf(['Tony and Maria', 'Bella Napoli', 'Slice Society', 'Forno Rosso'], 1.5),
};

// ------------------------------------------------------------------------------------------------ conversations
/** Each turn: [role, sentences]; a sentence is picked by a Zipf-like law (the first is the most common phrasing). */
const GREETING = [
  'agent',
  [
    'Thanks for calling {business}, how can I help you today?',
    'Hi, thank you for calling {business}. What can I get for you?',
    '{business}, this is the virtual assistant. How can I help?',
    'Good evening and thanks for calling {business}. Pickup or delivery?',
    'Hello, {business}. Are you calling to place an order?',
  ],
];
const ASK_NAME = [
  'agent',
  ['Can I get a name for the order?', 'What name should I put that under?', 'And your name please?'],
];
const GIVE_NAME = [
  'caller',
  ['{first} {surname}.', "It's {first} {surname}.", 'Under {surname}, {first} {surname}.', 'Put it under {surname}.'],
];
const THANKS = [
  'caller',
  ['Great, thank you!', 'Perfect, thanks so much.', 'Awesome, thanks.', 'Okay, thank you, bye.', 'Sounds good.'],
];
const GOODBYE = [
  'agent',
  [
    'Thank you {first}, have a great night!',
    'You are all set. Thanks for calling {business}!',
    'Thanks for calling, see you soon.',
  ],
];
const EXTRA = [
  [
    'caller',
    [
      'Do you have {diet} options?',
      'Quick question, do you offer {service}?',
      'Does the {side} have {allergen} in it?',
      'Also, do you deliver to {place}?',
      'Oh and {detail}.',
    ],
  ],
  [
    'agent',
    [
      'Yes we do, and I can note that on the order.',
      'We do, it is on the website under {service}.',
      'Let me check. It does not contain {allergen}, but the kitchen handles it.',
      'We deliver to {place}, it usually takes about {minutes} minutes.',
      'No problem, I added a note.',
    ],
  ],
];

const INTENTS = {
  order_placed: {
    turns: [
      GREETING,
      [
        'caller',
        [
          'Hi, can I get a {size} {pizza} with {topping}?',
          "I'd like to order a {size} {pizza} for delivery to {street}.",
          'Yeah, a {size} {pizza}, half {topping} half {topping}, for pickup.',
          'Can I place an order? Two {size} pizzas, one {pizza} and one with {topping} and {topping}.',
          'Hi, I want to order the {pizza} and {side}.',
        ],
      ],
      [
        'agent',
        [
          'Sure. Anything else with that?',
          'Got it. Would you like to add {side} or a {drink}?',
          'Great choice. Do you want {topping} on that too?',
          'No problem. Is that for pickup or delivery?',
        ],
      ],
      [
        'caller',
        [
          'Also {side} and a {drink}, please.',
          'Add {topping}, and {detail}.',
          "No, that's it. Actually, {detail}.",
          'Delivery to {street} please, and a {drink}.',
          'Pickup. And can I get {side} too?',
        ],
      ],
      ASK_NAME,
      GIVE_NAME,
      [
        'agent',
        [
          'Your total comes to {price} dollars. It will be ready in about {minutes} minutes.',
          'That is {price} dollars. Delivery to {street} takes about {minutes} minutes.',
          'Okay {first}, {price} dollars, and it will be at your door in {minutes} minutes.',
        ],
      ],
      ['caller', ['I will pay with {payment}.', 'Great, thanks!', '{payment} is fine.', 'Perfect.']],
    ],
    summaries: [
      'The caller ordered a {size} {pizza} with {topping} for {price} dollars.',
      '{first} {surname} ordered a {size} {pizza} and {side} for delivery to {street}.',
      'Order placed: {size} {pizza}, {side} and a {drink}, paid by {payment}.',
      'Pickup order for {first} {surname}: {pizza}, ready in {minutes} minutes.',
    ],
    custom: (ctx, rand) => ({ order_total: Number(ctx.price), delivery: rand() < 0.55 }),
  },
  reservation_booked: {
    turns: [
      GREETING,
      [
        'caller',
        [
          "I'd like to book a table for {party} {day} at {time}.",
          'Do you have room for {party} people {day}?',
          'Can I make a reservation for {party}, around {time} {day}?',
          "Hi, we're celebrating {occasion} and need a table for {party}.",
        ],
      ],
      [
        'agent',
        [
          'Let me check. Yes, we have {time} available.',
          'We can do {time} on the patio or inside.',
          'For {party} people {day}, the earliest I have is {time}.',
        ],
      ],
      ['caller', ['{time} works. It is for {occasion}.', 'Inside please, and {detail}.', 'Perfect, we will take it.']],
      ASK_NAME,
      GIVE_NAME,
      [
        'agent',
        [
          'You are all set, {party} people {day} at {time} under {surname}.',
          'Booked: a table for {party} {day} at {time}. We will text you a confirmation.',
        ],
      ],
      THANKS,
    ],
    summaries: [
      'Reservation for {party} {day} at {time} under {surname}.',
      '{first} {surname} booked a table for {party} for {occasion}, {day} at {time}.',
      'The caller reserved a table for {party} people {day}.',
    ],
    custom: (ctx) => ({ party_size: Number(ctx.party) }),
  },
  question_answered: {
    turns: [
      GREETING,
      [
        'caller',
        [
          'What time do you close {day}?',
          'Do you have a {diet} crust?',
          'Do you offer {service}?',
          'Do you deliver to {place}?',
          'Does the {pizza} have {allergen} in it?',
          'Are you open {day}?',
        ],
      ],
      [
        'agent',
        [
          'We are open until 10 pm {day}.',
          'Yes, we have a {diet} crust for any pizza, two dollars extra.',
          'Yes, we offer {service}, you can also set it up online.',
          'We deliver to {place}, usually within {minutes} minutes.',
          'The {pizza} does not contain {allergen}, but our kitchen does handle it.',
        ],
      ],
      [
        'caller',
        [
          'And is there {service}?',
          'Okay, what about {side}, is that {diet}?',
          'Good to know. Do you take {payment}?',
          'Do I need a reservation for {party}?',
        ],
      ],
      [
        'agent',
        [
          'Yes, we do.',
          'The {side} can be made {diet} on request.',
          'We take {payment} and all major cards.',
          'For {party} people I would recommend booking ahead.',
        ],
      ],
      THANKS,
      GOODBYE,
    ],
    summaries: [
      'The caller asked about {service} and opening hours {day}.',
      'Question about {diet} options and {allergen}; answered.',
      'The caller asked whether we deliver to {place}.',
      '{first} asked about {service}; no order placed.',
    ],
    custom: () => ({}),
  },
  transferred: {
    turns: [
      GREETING,
      [
        'caller',
        [
          'I need to talk to a manager, {complaint}.',
          'I am calling about catering for {occasion}, about {party} people.',
          'Can I speak to someone about a large order for {occasion}?',
        ],
      ],
      ['agent', ['I am sorry to hear that. Can I get your name?', 'Happy to help. Who am I speaking with?']],
      GIVE_NAME,
      [
        'agent',
        [
          'Thanks {first}, let me transfer you to the manager.',
          'One moment {first}, I will connect you with our catering team.',
        ],
      ],
      ['caller', ['Okay, I will hold.', 'Thank you.', 'Sure.']],
    ],
    summaries: [
      'Transferred to the manager: {complaint}.',
      'Catering request for {occasion}, {party} people; transferred to catering.',
      '{first} {surname} asked for a manager; transferred.',
    ],
    custom: () => ({}),
  },
  message_taken: {
    turns: [
      GREETING,
      [
        'caller',
        [
          'Is {first} there? I am calling about {service}.',
          'Hi, I am a supplier, I need to reach the owner about an invoice.',
          'Can someone call me back about {occasion}?',
        ],
      ],
      [
        'agent',
        ['They are not available right now, can I take a message?', 'I can pass a message along. What is it about?'],
      ],
      ['caller', ['Sure, have them call me back at this number about {occasion}.', 'Tell them {detail}.']],
      ASK_NAME,
      GIVE_NAME,
      ['agent', ['Got it, I will pass it along today.', 'Thanks {first}, someone will call you back {day}.']],
      THANKS,
    ],
    summaries: [
      'Message for the owner from {first} {surname} about {occasion}; wants a call back.',
      'The caller left a message about {service}.',
    ],
    custom: () => ({ callback_requested: true }),
  },
  order_status: {
    turns: [
      GREETING,
      [
        'caller',
        [
          'I placed an order about {minutes} minutes ago under {surname}, where is it?',
          'Hi, checking on my delivery to {street}.',
        ],
      ],
      ['agent', ['Let me look that up.', 'One moment, I am checking the order for {surname}.']],
      [
        'agent',
        [
          'It left the store and should arrive at {street} in about {minutes} minutes.',
          'It is in the oven now, about {minutes} more minutes.',
        ],
      ],
      ['caller', ['Okay, thanks.', 'Can you tell the driver {detail}?', 'That is a long wait.']],
      GOODBYE,
    ],
    summaries: ['The caller checked on an order to {street}; it was on its way.', 'Order status for {surname}.'],
    custom: () => ({}),
  },
  complaint: {
    turns: [
      GREETING,
      [
        'caller',
        ['Hi, {complaint}.', 'I want to complain, {complaint}.', 'Honestly, {complaint}, this is the second time.'],
      ],
      [
        'agent',
        [
          'I am really sorry about that. Can I get the name on the order?',
          'I apologize. Let me make that right, what name is it under?',
        ],
      ],
      GIVE_NAME,
      [
        'agent',
        [
          'I have issued a credit of {price} dollars to your card.',
          'I can send a replacement {pizza} right away, on the house.',
        ],
      ],
      ['caller', ['Fine, thanks.', 'Okay, I appreciate it.', 'That is not good enough.']],
    ],
    summaries: ['Complaint: {complaint}; credit of {price} dollars issued.', 'Unhappy caller: {complaint}.'],
    custom: () => ({ refund: true }),
  },
  no_action: {
    turns: [GREETING, ['caller', ['Sorry, wrong number.', 'Hello? Hello?', 'Oh, never mind, bye.']]],
    summaries: ['Wrong number.', 'The caller hung up.'],
    custom: () => ({}),
  },
};

/** The outcomes with their shares (skewed: orders are most calls). */
const OUTCOMES = [
  ['order_placed', 0.38],
  ['question_answered', 0.2],
  ['reservation_booked', 0.14],
  ['transferred', 0.09],
  ['message_taken', 0.08],
  ['no_action', 0.05],
  ['order_status', 0.04],
  ['complaint', 0.02],
];
const pickOutcome = weighted(OUTCOMES);
const SENTIMENT_BY_OUTCOME = {
  complaint: weighted([
    ['negative', 0.7],
    ['neutral', 0.2],
    ['unknown', 0.1],
  ]),
  transferred: weighted([
    ['negative', 0.3],
    ['neutral', 0.5],
    ['positive', 0.1],
    ['unknown', 0.1],
  ]),
  default: weighted([
    ['positive', 0.36],
    ['neutral', 0.49],
    ['negative', 0.08],
    ['unknown', 0.07],
  ]),
};
const pickSuccessful = weighted([
  [true, 0.58],
  [false, 0.25],
  [null, 0.17],
]);
const DIRECTIONS = [
  ['inbound', 0.96],
  ['outbound', 0.04],
];
const STATUSES = [
  ['completed', 0.95],
  ['failed', 0.02],
  ['busy', 0.015],
  ['no-answer', 0.015],
];
const pickDirection = weighted(DIRECTIONS);
const pickStatus = weighted(STATUSES);
/** The share of calls recorded. */
const RECORDED_SHARE = 0.6;
/** Callers: 50,000 numbers, some calling often (weight 1/rank^0.5). */
const CALLER_POOL = 50_000;
const CALLER_AREAS = ['415', '510', '650', '408', '925', '628'];
const callerRanks = zipf(
  Array.from({ length: CALLER_POOL }, (_, i) => i),
  0.5,
);
/** The caller of pool index `i` (E.164; distinct for every i < 7,000,000). */
export function callerOf(i) {
  return `+1${CALLER_AREAS[i % CALLER_AREAS.length]}${2_000_000 + ((i * 7_368_787) % 7_000_000)}`;
}
export const MAX_DURATION_SEC = 1800;

// ------------------------------------------------------------------------------------------------ times
const DAY_MS = 86_400_000;
// Share of a day's calls by UTC hour (a restaurant: lunch and dinner peaks, little at night).
const HOURLY = [0.3, 0.1, 0.05, 0.05, 0.05, 0.1, 0.3, 0.8, 1.5, 2.5, 4, 7, 9, 7, 4, 3.5, 5, 8, 10, 9, 7, 4.5, 2.5, 1];
const HOURLY_CUMULATIVE = (() => {
  const total = HOURLY.reduce((sum, v) => sum + v, 0);
  let running = 0;
  return HOURLY.map((v) => (running += v / total));
})();
/** The instant within a day (ms) at fraction `f` of its calls: the hourly shares' inverse, linear within the hour. */
export function timeOfDay(f) {
  const hour = firstAbove(HOURLY_CUMULATIVE, f);
  const before = hour === 0 ? 0 : HOURLY_CUMULATIVE[hour - 1];
  const within = (f - before) / (HOURLY_CUMULATIVE[hour] - before);
  return Math.min(DAY_MS - 1, Math.floor((hour + Math.min(within, 0.999_999)) * 3_600_000));
}

// ------------------------------------------------------------------------------------------------ calls
function fill(template, ctx, rand) {
  return template.replace(/\{(\w+)\}/g, (_, slot) => {
    if (STICKY.has(slot) && ctx[slot] !== undefined) return ctx[slot];
    let value;
    if (slot === 'party') value = String(2 + Math.floor(rand() ** 2 * 11));
    else if (slot === 'price') value = (12 + rand() * 70).toFixed(2);
    else if (slot === 'minutes') value = String(10 + 5 * Math.floor(rand() * 10));
    else value = SLOTS[slot](rand);
    if (STICKY.has(slot)) ctx[slot] = value;
    return value;
  });
}

const sentencePickers = new Map();
function sentence(list, rand) {
  let pick = sentencePickers.get(list);
  if (!pick) sentencePickers.set(list, (pick = zipf(list, 1.1)));
  return pick(rand);
}

function conversation(intent, ctx, rand) {
  const turns = [];
  const say = ([role, sentences]) => turns.push({ role, text: fill(sentence(sentences, rand), ctx, rand) });
  const plan = INTENTS[intent].turns;
  // About eight turns: a side question now and then (before the last two turns), a call cut short now and then.
  const extra = intent !== 'no_action' && rand() < 0.5;
  const cut = intent !== 'no_action' && rand() < 0.12 ? 2 : 0;
  plan.slice(0, plan.length - cut).forEach((turn, i) => {
    if (extra && i === plan.length - 2) EXTRA.forEach(say);
    say(turn);
  });
  return turns;
}

/** A call's duration (s): log-normal around about 1.5 minutes, skewed short, 0 to MAX_DURATION_SEC. */
function duration(intent, rand) {
  if (intent === 'no_action') return Math.floor(rand() * 20);
  // Box-Muller: a normal draw.
  const normal = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  return Math.max(5, Math.min(MAX_DURATION_SEC, Math.round(Math.exp(4.5 + 0.9 * normal))));
}

/**
 * A batch of `count` calls of one account: `batch.call(k)` for k in [0, count). `numbers`: the account's numbers
 * [{ id, phone_number }], the first taking most calls. Start times rise with k over the `days` days before `anchor`
 * (ms; start times are before it).
 */
export function callBatch({ seed, count, accountId, numbers, anchor, days = 730 }) {
  const pickNumber = weighted(numbers.map((number, i) => [number, 1 / (i + 1) ** 1.2]));
  const firstDay = Math.floor(anchor / DAY_MS) * DAY_MS - days * DAY_MS;
  const prefix = (seed >>> 0).toString(16).padStart(8, '0');
  return {
    count,
    call(k) {
      if (!(k >= 0 && k < count)) throw new RangeError(`call ${k} of a batch of ${count}`);
      const rand = mulberry32(mixSeed(seed, k));
      const intent = pickOutcome(rand);
      const ctx = {};
      const turns = conversation(intent, ctx, rand);
      const { summaries, custom } = INTENTS[intent];
      const number = pickNumber(rand);
      const sentiment = (SENTIMENT_BY_OUTCOME[intent] ?? SENTIMENT_BY_OUTCOME.default)(rand);
      // The k-th of `count` calls at its place in the span: whole days by k, within the day by the hourly shares.
      const position = ((k + rand()) / count) * days;
      const day = Math.min(days - 1, Math.floor(position));
      const startedAt = Math.min(anchor - 1, firstDay + day * DAY_MS + timeOfDay(position - day));
      const durationSec = duration(intent, rand);
      return {
        id: `CA${prefix}${k.toString(16).padStart(24, '0')}`,
        account_id: accountId,
        number_id: number.id,
        phone_number: number.phone_number,
        caller: callerOf(callerRanks(rand)),
        direction: pickDirection(rand),
        status: pickStatus(rand),
        outcome: intent,
        duration_sec: durationSec,
        started_at: startedAt,
        turns,
        // Some agents give no summary (about 5%).
        summary: rand() < 0.95 ? fill(sentence(summaries, rand), ctx, rand) : null,
        sentiment,
        successful: intent === 'no_action' ? null : pickSuccessful(rand),
        custom: intent === 'no_action' ? {} : custom(ctx, rand),
        recorded: rand() < RECORDED_SHARE,
      };
    },
  };
}

// ------------------------------------------------------------------------------------------------ COPY text
/** A value in PostgreSQL's COPY text format: `\N` for null, backslash, tab, newline and carriage return escaped. */
export function copyValue(value) {
  if (value === null || value === undefined) return '\\N';
  const text = typeof value === 'string' ? value : String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r')
    : text;
}

/** One COPY text line of `values`. */
export const copyLine = (values) => `${values.map(copyValue).join('\t')}\n`;

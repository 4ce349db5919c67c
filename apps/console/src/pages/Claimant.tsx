// The public claimant page (docs/adr/0079 and 0080): `/console/claim/{slug}`, no sign-in. A person who lost
// something files a claim; the page only calls /claim/api, and its answer never says whether an item matches.
import { useEffect, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { ApiError, api, newIdempotencyKey, type Schemas } from '../api';
import { Button, Field, Loading, Notice, failureOf, useLoad, type FormFailure } from '../components/ui';

const FIELDS = [
  'claimant_name',
  'claimant_phone',
  'claimant_email',
  'description',
  'category',
  'color',
  'lost_area',
  'lost_date',
] as const;
type Form = Record<(typeof FIELDS)[number], string>;
/**
 * What the page tells a claimant about a field the server refused: the page's own words, never the API's field names
 * (`claimant_name is required`). `missing` for a required field left empty, `tooLong` past its length, `wrong` else.
 */
const PLAIN: Record<keyof Form, { missing: string; tooLong: string; wrong: string }> = {
  claimant_name: {
    missing: 'Tell us your name.',
    tooLong: 'Your name is too long: shorten it.',
    wrong: 'Tell us your name.',
  },
  claimant_phone: {
    missing: 'Enter your mobile number, so that we can text you.',
    tooLong: 'Enter a mobile number we can text, such as +1 415 555 0123.',
    wrong: 'Enter a mobile number we can text, such as +1 415 555 0123 or (415) 555-0123.',
  },
  claimant_email: {
    missing: 'Enter an email address, or leave it empty.',
    tooLong: 'That email address is too long: use a shorter one, or leave it empty.',
    wrong: 'Enter an email address such as name@example.com, or leave it empty.',
  },
  description: {
    missing: 'Tell us what you lost.',
    tooLong: 'That is more than we can take: describe it in fewer words.',
    wrong: 'Tell us what you lost.',
  },
  category: {
    missing: 'Pick a category, or leave it empty.',
    tooLong: 'Use one or two words for the category, or leave it empty.',
    wrong: 'Pick a category from the suggestions, or leave it empty.',
  },
  color: {
    missing: 'Enter a colour, or leave it empty.',
    tooLong: 'Use a word or two for the colour.',
    wrong: 'Enter a colour, or leave it empty.',
  },
  lost_area: {
    missing: 'Say where you lost it, or leave it empty.',
    tooLong: 'Say where you lost it in fewer words.',
    wrong: 'Say where you lost it, or leave it empty.',
  },
  lost_date: {
    missing: 'Pick the day you lost it, or leave it empty.',
    tooLong: 'Pick the day you lost it from the calendar.',
    wrong: 'Pick the day you lost it from the calendar, or leave it empty.',
  },
};

/** The form's failure in the claimant's words: each refused field by `PLAIN`, the summary at the top plain too. */
function plainFailure(failure: FormFailure): FormFailure {
  const names = Object.keys(failure.fields) as (keyof Form)[];
  if (names.length === 0) {
    return failure.message && /\b[a-z]+_[a-z_]+\b/.test(failure.message)
      ? { fields: {}, message: 'Some of your answers could not be taken. Check them and try again.' }
      : failure;
  }
  const fields: Record<string, string> = {};
  for (const name of names) {
    const said = failure.fields[name];
    const plain = PLAIN[name];
    fields[name] = /is required|must not be empty/.test(said)
      ? plain.missing
      : /at most \d+ characters/.test(said)
        ? plain.tooLong
        : plain.wrong;
  }
  return {
    fields,
    message: names.length > 1 ? 'Some answers need a change: see the marked fields below.' : undefined,
  };
}

const BLANK: Form = {
  claimant_name: '',
  claimant_phone: '',
  claimant_email: '',
  description: '',
  category: '',
  color: '',
  lost_area: '',
  lost_date: '',
};

export function ClaimantPage() {
  const { slug = '' } = useParams();
  const location = useLoad(() => api.GET('/claim/api/locations/{slug}', { params: { path: { slug } } }), [slug]);
  const [form, setForm] = useState<Form>(BLANK);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<FormFailure>();
  const [urgent, setUrgent] = useState<string>();
  const [filed, setFiled] = useState<Schemas['ClaimantClaimFiled']>();
  const set = (name: keyof Form) => (value: string) => setForm({ ...form, [name]: value });

  useEffect(() => {
    document.title = location.data ? `Lost something at ${location.data.name}?` : 'Lost and found';
  }, [location.data]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFailure(undefined);
    setUrgent(undefined);
    try {
      // The fields filled in: a required one left blank is the server's 400, shown beside that field.
      const body = Object.fromEntries(
        FIELDS.filter((name) => form[name].trim()).map((name) => [name, form[name].trim()]),
      ) as Schemas['ClaimantClaimBody'];
      const answer = await api.POST('/claim/api/locations/{slug}/claims', {
        params: { path: { slug }, header: { 'Idempotency-Key': newIdempotencyKey() } },
        body,
      });
      setFiled(answer);
      window.scrollTo({ top: 0 });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'urgent_category') {
        setUrgent(error.serverMessage || 'Please call the venue now, or emergency services.');
        document.getElementById('urgent')?.focus();
      } else {
        setFailure(plainFailure(failureOf(error, FIELDS)));
      }
    } finally {
      setBusy(false);
    }
  };

  let content;
  if (location.error) {
    const gone = location.error instanceof ApiError && location.error.status === 404;
    content = (
      <>
        <h1>Lost and found</h1>
        <Notice tone="error">
          {gone
            ? 'There is no lost-and-found page at this address. Check the link you were given, or ask the venue.'
            : location.error.message}
        </Notice>
      </>
    );
  } else if (!location.data) {
    content = <Loading what="the page" />;
  } else if (filed) {
    content = (
      <>
        <h1>Lost something at {location.data.name}?</h1>
        <Notice tone="success" title="Claim received">
          {filed.message}
        </Notice>
        <p className="hint">You can close this page. Bring proof that the item is yours when you collect it.</p>
      </>
    );
  } else {
    content = (
      <>
        <h1>Lost something at {location.data.name}?</h1>
        <p>Tell us what you lost. If it is handed in, we will text you.</p>
        <div id="urgent" tabIndex={-1}>
          {urgent ? (
            <div className="notice notice--error notice--urgent" role="alert" data-testid="urgent-refusal">
              <p className="notice-title">This form is not for this: call now</p>
              <p>{urgent}</p>
            </div>
          ) : null}
        </div>
        <form onSubmit={(event) => void submit(event)} noValidate aria-label="Your claim">
          {failure?.message ? <Notice tone="error">{failure.message}</Notice> : null}
          <Field
            label="Your name"
            name="claimant_name"
            autoComplete="name"
            required
            value={form.claimant_name}
            onChange={set('claimant_name')}
            error={failure?.fields.claimant_name}
          />
          <Field
            label="Mobile phone"
            name="claimant_phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            required
            value={form.claimant_phone}
            onChange={set('claimant_phone')}
            error={failure?.fields.claimant_phone}
            hint="We text you here if your item is found."
          />
          <Field
            label="Email"
            name="claimant_email"
            type="email"
            autoComplete="email"
            value={form.claimant_email}
            onChange={set('claimant_email')}
            error={failure?.fields.claimant_email}
          />
          <Field
            label="What did you lose?"
            name="description"
            multiline
            required
            value={form.description}
            onChange={set('description')}
            error={failure?.fields.description}
            hint="Describe it: brand, colour, anything special."
          />
          <Field
            label="Category"
            name="category"
            list="claim-categories"
            value={form.category}
            onChange={set('category')}
            error={failure?.fields.category}
            hint="Pick a suggestion or type a word."
          />
          <datalist id="claim-categories">
            {location.data.categories.map((category) => (
              <option key={category} value={category} />
            ))}
          </datalist>
          <Field label="Colour" name="color" value={form.color} onChange={set('color')} error={failure?.fields.color} />
          <Field
            label="Where did you lose it?"
            name="lost_area"
            value={form.lost_area}
            onChange={set('lost_area')}
            error={failure?.fields.lost_area}
          />
          <Field
            label="When did you lose it?"
            name="lost_date"
            type="date"
            value={form.lost_date}
            onChange={set('lost_date')}
            error={failure?.fields.lost_date}
          />
          <Button type="submit" variant="primary" busy={busy} className="button--block">
            {busy ? 'Sending…' : 'Send my claim'}
          </Button>
        </form>
        <p className="hint">
          A lost child or person, or medication someone needs: do not use this form. Call the venue now, or emergency
          services.
        </p>
      </>
    );
  }

  return (
    <main id="main" className="auth claimant">
      <div className="auth-card">
        <p className="auth-brand">Lost and found</p>
        {content}
      </div>
    </main>
  );
}

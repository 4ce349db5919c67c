import { useId, useState, type FormEvent } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, ApiError, newIdempotencyKey, type Schemas } from '../api';
import { Photos, Timeline, atSomeLocation } from '../components/desk';
import {
  Button,
  Empty,
  LoadError,
  Loading,
  Notice,
  PageHeader,
  PageLoadError,
  StatusBadge,
  messageOf,
  useLoad,
  Fact,
} from '../components/ui';
import { formatTime } from '../format';
import { roleReason, useSignedIn } from '../session';

/** The label of the reunite form's proof checkbox, which the high-value refusal names. */
const VERIFY_LABEL = "I have verified the claimant's proof of ownership";

/** `/lostfound/claims/:id`: the claim beside its candidate items, and reuniting one with it. */
export function DeskClaimPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const locationParam = params.get('location') ?? '';
  const claim = useLoad(
    () =>
      atSomeLocation(locationParam, (locationId) =>
        api.GET('/console/api/lostfound/claims/{id}', {
          params: { path: { id: Number(id) }, query: { location_id: locationId } },
        }),
      ),
    [id, locationParam],
  );
  const locationId = claim.data ? String(claim.data.location_id) : locationParam;
  // The stored items the claim matched, high-value ones included: the rows its `has_match` is true for, so the page
  // lists a candidate exactly when the claims list says "Match" and the claimant was texted about one.
  const matched = useLoad(
    async () =>
      claim.data
        ? api.GET('/console/api/lostfound/claims/{id}/candidates', {
            params: { path: { id: claim.data.id }, query: { location_id: claim.data.location_id } },
          })
        : undefined,
    [claim.data?.id, claim.data?.location_id, claim.data?.status, claim.data?.has_match],
  );
  // Kept here, not in the form: once an item is given back the claim's candidates change and the form may go.
  const [reunited, setReunited] = useState<Schemas['Reunited']>();
  const back = locationId ? `/lostfound/claims?location=${encodeURIComponent(locationId)}` : '/lostfound/claims';
  if (claim.error) {
    return (
      <PageLoadError title="Claim" error={claim.error} retry={claim.reload} back={back} backLabel="Back to claims" />
    );
  }
  if (!claim.data) return <Loading what="the claim" />;
  const c = claim.data;
  // A closed claim lists no candidates: its item was given back, and the stored items beside it are not its matches.
  const open = c.status === 'open';
  const candidates = matched.data?.data ?? [];
  const highValue = c.verify_required === true || candidates.some((candidate) => candidate.value_class !== 'low');
  return (
    <section>
      <p className="breadcrumb">
        <Link to={back}>Claims</Link> <span aria-hidden="true">/</span>
      </p>
      <PageHeader
        title={`Claim #${c.id}: ${c.description || c.category}`}
        description={
          <>
            Filed {formatTime(c.created_at)} ({c.source === 'web' ? 'public page' : c.source})
          </>
        }
      >
        <StatusBadge status={c.status} />
      </PageHeader>
      {reunited ? (
        <Notice tone="success">
          Item #{reunited.found_item_id} was given back to {c.claimant_name}
          {reunited.verified ? ', with verified proof' : ''}.
        </Notice>
      ) : null}
      <div className="grid-2 grid-2--gap side-by-side">
        <div className="card" data-testid="claim-facts">
          <h2>The claim</h2>
          <dl className="facts">
            <Fact label="Claimant">{c.claimant_name}</Fact>
            <Fact label="Phone">{c.claimant_phone}</Fact>
            <Fact label="Email">{c.claimant_email}</Fact>
            <Fact label="Category">
              {c.category}
              {c.verify_required ? <span className="badge badge--warn badge--inline">high value</span> : null}
            </Fact>
            <Fact label="Colour">{c.color}</Fact>
            <Fact label="Lost on">{c.lost_date ?? ''}</Fact>
            <Fact label="Where lost">{c.lost_area}</Fact>
            <Fact label="Proof offered">{c.proof_note}</Fact>
          </dl>
          <h3>Timeline</h3>
          <Timeline entries={c.timeline} label="The claim's timeline, oldest first" />
          <h3>Texts sent to the claimant</h3>
          <SentTexts texts={c.texts} />
          {c.photos.length > 0 ? (
            <>
              <h3>Photos</h3>
              <Photos photos={c.photos} />
            </>
          ) : null}
        </div>
        <div className="card" data-testid="claim-candidates">
          <h2>{open ? 'Candidate matches' : 'Given back'}</h2>
          {open && highValue && candidates.length > 0 ? (
            <Notice tone="warning" title="High-value item">
              Give an item back only after checking the claimant&apos;s proof of ownership in person (ID, what is
              inside, a receipt).
            </Notice>
          ) : null}
          {!open ? <Notice tone="info">This claim is closed: its item was given back.</Notice> : null}
          {open && matched.error ? <LoadError error={matched.error} retry={matched.reload} /> : null}
          {open && matched.data && candidates.length === 0 ? (
            <Empty>No candidate item yet. When a matching item is logged, the claimant is texted.</Empty>
          ) : null}
          {open && matched.data && matched.data.total > candidates.length ? (
            <p className="muted">
              The best {candidates.length} of {matched.data.total} stored items that match this claim.
            </p>
          ) : null}
          {open && candidates.length > 0 ? (
            <Reunite
              claim={c}
              candidates={candidates}
              onDone={(answer) => {
                setReunited(answer);
                claim.reload();
              }}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}

function Reunite({
  claim,
  candidates,
  onDone,
}: {
  claim: Schemas['ClaimDetail'];
  candidates: Schemas['ClaimCandidateView'][];
  onDone: (answer: Schemas['Reunited']) => void;
}) {
  const { can, role } = useSignedIn();
  const [chosen, setChosen] = useState<number | undefined>(
    candidates.length === 1 ? candidates[0].found_item_id : undefined,
  );
  const [verified, setVerified] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ field?: 'found_item_id' | 'verified'; message: string }>();
  const open = claim.status === 'open' && can('use_desk');
  const chosenValue = candidates.find((candidate) => candidate.found_item_id === chosen)?.value_class;
  const proofRequired = claim.verify_required === true || (chosenValue !== undefined && chosenValue !== 'low');
  const verifyId = useId();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(undefined);
    if (chosen === undefined) {
      setFailure({ field: 'found_item_id', message: 'Choose the item that is being given back.' });
      return;
    }
    setBusy(true);
    try {
      const answer = await api.POST('/console/api/lostfound/claims/{id}/reunite', {
        params: { path: { id: claim.id }, header: { 'Idempotency-Key': newIdempotencyKey() } },
        body: { location_id: claim.location_id, found_item_id: chosen, verified },
      });
      onDone(answer);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'verification_required') {
        // Named here, beside the checkbox, by its own label: the desk's words, not the API's `verified: true`.
        setFailure({
          field: 'verified',
          message: `This is a high-value item: give it back only once you have checked the claimant's proof of ownership in person. Then tick "${VERIFY_LABEL}" and reunite.`,
        });
        return;
      }
      const field = error instanceof ApiError && error.fields?.found_item_id ? 'found_item_id' : undefined;
      setFailure({ field, message: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Reunite an item with this claim" noValidate>
      {failure && !failure.field ? <Notice tone="error">{failure.message}</Notice> : null}
      <fieldset
        className="candidates"
        aria-describedby={failure?.field === 'found_item_id' ? 'candidate-error' : undefined}
      >
        <legend className="visually-hidden">Candidate items</legend>
        {candidates.map((candidate) => (
          <label
            key={candidate.found_item_id}
            className={`candidate${chosen === candidate.found_item_id ? ' candidate--chosen' : ''}`}
            data-candidate-id={candidate.found_item_id}
          >
            {open ? (
              <input
                type="radio"
                name="found_item_id"
                value={candidate.found_item_id}
                checked={chosen === candidate.found_item_id}
                onChange={() => setChosen(candidate.found_item_id)}
              />
            ) : null}
            <span className="candidate-body">
              <span className="candidate-title">
                #{candidate.found_item_id} {candidate.description}
                {candidate.value_class !== 'low' ? (
                  <span className="badge badge--warn badge--inline">high value</span>
                ) : null}
              </span>
              <span className="muted">
                {[
                  candidate.category,
                  candidate.color,
                  candidate.found_area,
                  `found ${candidate.found_date}`,
                  candidate.storage_ref ? `storage ${candidate.storage_ref}` : '',
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </span>
              <Link to={`/lostfound/items/${candidate.found_item_id}?location=${claim.location_id}`}>
                Item #{candidate.found_item_id}&apos;s page
              </Link>
            </span>
          </label>
        ))}
      </fieldset>
      {failure?.field === 'found_item_id' ? (
        <p className="field-error" id="candidate-error">
          {failure.message}
        </p>
      ) : null}
      {open ? (
        <>
          <div className={`checkbox${failure?.field === 'verified' ? ' field--invalid' : ''}`}>
            <input
              id={verifyId}
              type="checkbox"
              checked={verified}
              onChange={(event) => setVerified(event.target.checked)}
              aria-describedby={failure?.field === 'verified' ? `${verifyId}-error` : `${verifyId}-hint`}
              aria-invalid={failure?.field === 'verified' || undefined}
            />
            <label htmlFor={verifyId}>{VERIFY_LABEL}</label>
          </div>
          {failure?.field === 'verified' ? (
            <p className="field-error" id={`${verifyId}-error`} role="alert">
              {failure.message}
            </p>
          ) : (
            <p className="hint" id={`${verifyId}-hint`}>
              {proofRequired ? 'Required for a high-value item.' : 'Optional for this item; recorded with the release.'}
            </p>
          )}
          <div className="actions">
            <Button type="submit" variant="primary" busy={busy}>
              {busy ? 'Reuniting…' : 'Reunite'}
            </Button>
          </div>
        </>
      ) : claim.status === 'open' ? (
        <Notice tone="info">{roleReason(role, 'use_desk')}</Notice>
      ) : null}
    </form>
  );
}

/** The texts sent to a claimant about their claim, oldest first, as plain text. */
function SentTexts({ texts }: { texts: Schemas['ClaimTextView'][] }) {
  if (texts.length === 0) return <Empty>No text sent yet.</Empty>;
  return (
    <ol className="timeline" aria-label="Texts sent to the claimant, oldest first" data-testid="claim-texts">
      {texts.map((text, index) => (
        <li key={index}>
          <p className="timeline-when muted">{formatTime(text.sent_at)}</p>
          <p className="timeline-note">{text.body}</p>
        </li>
      ))}
    </ol>
  );
}

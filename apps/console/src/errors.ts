// Every failure as a sentence a person can act on. The server's message is kept where it is the most precise
// thing to say (validation, a refused role, which names the role and the action).

const SENTENCES: Record<string, string> = {
  network: 'The console could not reach the server. Check your connection and try again.',
  not_signed_in: 'Your session has ended. Sign in again to continue.',
  invalid_credentials: 'That email and password do not match an account.',
  sign_in_throttled: 'Too many sign-in attempts. Wait a moment before trying again.',
  csrf_failed: 'This page was open too long or in another session. Reload the page and try again.',
  invite_not_found:
    'This invitation link is not valid any more: it was used, it expired, or it was mistyped. Ask an owner of the account for a new one.',
  key_limit:
    'An account can have at most 5 active keys of each mode (live, test). Revoke a key you no longer use, then create a new one.',
  already_a_user: 'Someone with this email already has a console user. Each email can belong to one user only.',
  last_owner:
    'An account needs at least one owner. Make someone else an owner before removing this one or changing its role.',
  insufficient_balance: 'The balance is too low for this. Top up the account, or turn on auto top-up, and try again.',
  not_found: 'That no longer exists, or it belongs to another account.',
  no_recording: 'This call has no recording.',
  no_numbers: 'No phone numbers are available in that area right now. Try another area code.',
  number_limit: 'This account already has as many numbers as its tier allows. Release one or move to a larger tier.',
  provision_velocity: 'Too many numbers were provisioned in a short time. Wait a little and try again.',
  number_released: 'This number has been released; it cannot be changed any more.',
  number_not_in_service: 'This number is not in service.',
  rate_limited: 'Too many requests in a short time. Wait a moment and try again.',
  payload_too_large: 'That is more than the server accepts in one request.',
  provider_unavailable: 'The telephone provider is not answering right now. Try again in a minute.',
  service_unavailable: 'Part of Switchboard is briefly unavailable. Try again in a few seconds.',
  internal_error: 'Something went wrong on our side. Try again; if it keeps happening, contact support.',
  location_not_found:
    'That location does not run lost-and-found for this account (any more). Reload the page and pick another.',
  verification_required:
    "This is a high-value item (a wallet, handbag, phone, ID, keys or jewellery): it is released only once you have checked the claimant's proof of ownership in person and confirmed it on the reunite form.",
  claim_not_open: 'This claim is already closed: its item was released.',
  item_not_available: 'This item is no longer stored here: it was released, donated or disposed of.',
  hold_period_not_over:
    'This item is still within its hold period; it can be donated or disposed of from its hold-until date.',
  text_limit:
    'The account has sent as many texts today as it may. Log the item without texting claimants, or try tomorrow.',
  idempotency_key_in_use: 'The same request is still being processed. Wait a moment.',
};

export function describeError(status: number, code: string, serverMessage: string, retryAfterSeconds?: number): string {
  const wait = retryAfterSeconds ? ` (about ${retryAfterSeconds} s)` : '';
  // Validation and role refusals: the server's message names the field or the role and action.
  if ((code === 'invalid_request' || code === 'forbidden') && serverMessage) {
    return code === 'forbidden' ? `Not allowed: ${sentence(serverMessage)}` : endSentence(serverMessage);
  }
  const known = SENTENCES[code];
  if (known) return known.replace(/\.$/, `${wait}.`);
  if (status === 403) return 'Your role does not allow this. Ask an owner of the account.';
  if (status >= 500) return `The server could not do this (${status}). Try again in a moment.`;
  return serverMessage ? sentence(serverMessage) : `The request failed (${status || 'no answer'}).`;
}

function sentence(text: string): string {
  const trimmed = text.trim();
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** Keeps a field name's case (`webhook_url must be ...`), only ends the sentence. */
function endSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

import { Inject, Injectable } from '@nestjs/common';
import { NumbersRpc, formatUtcTime, type EndpointDisabledData, type EventEnvelope } from '@switchboard/contracts';
import { RpcClient } from '@switchboard/messaging';
import { LOGGER, type Logger } from '@switchboard/observability';
import { EmailPort, type EmailMessage } from '../email';
import { EndpointAlertsRepository } from './endpoint-alerts.repository';

/** The number's details a mail names; null fields when numbers-billing no longer knows them. */
export interface AlertedNumber {
  phone_number: string | null;
  webhook_url: string | null;
}

/** Looks a number up for the mail (numbers-billing, as the account). */
export abstract class AlertedNumberLookup {
  abstract find(accountId: string, numberId: string): Promise<AlertedNumber>;
}

@Injectable()
export class RpcAlertedNumberLookup extends AlertedNumberLookup {
  constructor(private readonly rpc: RpcClient) {
    super();
  }

  async find(accountId: string, numberId: string): Promise<AlertedNumber> {
    const number = await this.rpc.request(NumbersRpc.get, { id: numberId }, { accountId });
    return { phone_number: number.phone_number, webhook_url: number.webhook_url ?? null };
  }
}

/** The URL without credentials, query or fragment: a receiver's token may hide there, and a mail keeps no secret. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a valid URL)';
  }
}

const REASONS: Record<EndpointDisabledData['reason'], string> = {
  gone: 'it answered 410 Gone',
  failing: 'every delivery attempt failed for the documented run',
};

/** The mail to an owner: the number, its URL, why, and how to enable it again. Holds no secret. */
export function endpointDisabledMail(to: string, event: EndpointDisabledData, number: AlertedNumber): EmailMessage {
  const name = number.phone_number ? `${number.phone_number} (${event.number_id})` : event.number_id;
  const failures = event.reason === 'failing' ? ` (${event.consecutive_failures} failed attempts in a row)` : '';
  return {
    to,
    subject: `Webhook endpoint disabled for ${name}`,
    body: [
      `The webhook endpoint of number ${name} was disabled at ${formatUtcTime(event.disabled_at)}.`,
      `URL: ${number.webhook_url ? redactedUrl(number.webhook_url) : '(none set now)'}`,
      `Why: ${REASONS[event.reason]}${failures}.`,
      'Events wait (paused) until the endpoint is enabled again.',
      `To enable it again: POST /v1/numbers/${event.number_id}/webhook-endpoint/enable, or the number's page in the console.`,
    ].join('\n'),
  };
}

/**
 * Mails every owner of the account once per `webhook.endpoint_disabled` event (docs/adr/0075). The mail to an
 * address is claimed (a row per event and address) before it is sent: a redelivery finds the claim and sends
 * nothing, so no owner gets it twice. A failed send gives the claim back and throws, for the event to come again.
 */
@Injectable()
export class EndpointAlertsService {
  constructor(
    private readonly repository: EndpointAlertsRepository,
    private readonly numbers: AlertedNumberLookup,
    private readonly email: EmailPort,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** The number of mails sent (0 on a redelivery). */
  async handle(envelope: EventEnvelope<EndpointDisabledData>): Promise<number> {
    const event = envelope.data;
    const owners = await this.repository.ownerEmails(event.account_id);
    const log = { event_id: envelope.id, account_id: event.account_id, number_id: event.number_id };
    if (owners.length === 0) {
      this.logger.info(log, 'webhook endpoint disabled: the account has no owner to mail');
      return 0;
    }
    const number = await this.numbers.find(event.account_id, event.number_id);
    let sent = 0;
    for (const owner of owners) {
      if (!(await this.repository.claim(envelope.id, owner))) continue;
      try {
        await this.email.send(endpointDisabledMail(owner, event, number));
        sent += 1;
      } catch (error) {
        await this.repository.release(envelope.id, owner);
        throw error;
      }
    }
    this.logger.info({ ...log, owners: owners.length, sent }, 'webhook endpoint disabled: owners mailed');
    return sent;
  }
}

/** One message to one address, in plain text. */
export interface EmailMessage {
  to: string;
  subject: string;
  body: string;
}

/**
 * Outgoing mail (invites). A port like telephony and SMS in the services: the simulated adapter is the default and
 * keeps what it "sent" for the operator (`GET /admin/email`); a real adapter (SMTP, an email API) can replace it
 * without touching the console.
 */
export abstract class EmailPort {
  abstract send(message: EmailMessage): Promise<void>;
}

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StandInServer } from '../stand-in-server';

/**
 * A stand-in for the parts of Twilio's REST API (2010-04-01) that Switchboard calls, written from Twilio's API
 * reference (https://www.twilio.com/docs/usage/api): available local numbers by area code, buying, listing (paged,
 * filtered by FriendlyName or PhoneNumber) and releasing IncomingPhoneNumbers, and sending Messages. HTTP Basic
 * authentication with the account SID and auth token, form-encoded bodies, JSON answers, and Twilio's error shape
 * `{ code, message, more_info, status }`. Not Twilio: a test double that asserts what our adapters send and
 * answers as Twilio would, failures included.
 */
export type TwilioFault = 'rate_limited' | 'server_error' | 'hang' | 'sms_invalid_to';

export interface TwilioRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
}

interface OwnedNumber {
  sid: string;
  phone_number: string;
  friendly_name: string;
  voice_url: string | null;
  status_callback: string | null;
  date_created: string;
}

export class TwilioStandIn extends StandInServer {
  readonly accountSid = `AC${randomBytes(16).toString('hex')}`;
  readonly authToken = randomBytes(16).toString('hex');
  readonly requests: TwilioRequest[] = [];
  /** Faults answered to the next requests that buy, release, list or send, in order (one each). */
  readonly faults: TwilioFault[] = [];
  /** Numbers still for sale, per area code (what AvailablePhoneNumbers answers). */
  readonly forSale = new Map<string, string[]>();
  readonly owned: OwnedNumber[] = [];
  readonly messages: {
    sid: string;
    to: string;
    from: string | null;
    messaging_service_sid: string | null;
    body: string;
  }[] = [];
  /** Call recordings by RecordingSid: what `<RecordingUrl>.mp3` answers. */
  readonly recordings = new Map<string, Uint8Array>();
  /** Page size of IncomingPhoneNumbers lists, small so paging is exercised. */
  pageSize = 2;

  /** Puts `count` numbers of the area code on sale: +1<area>555<line>. */
  stock(areaCode: string, count: number): void {
    const numbers = Array.from({ length: count }, (_, i) => `+1${areaCode}555${String(200 + i).padStart(4, '0')}`);
    this.forSale.set(areaCode, numbers);
  }

  /** A recording of a call, as Twilio's recording callback will name it. */
  addRecording(bytes: Uint8Array): { RecordingSid: string; RecordingUrl: string } {
    const sid = `RE${randomBytes(16).toString('hex')}`;
    this.recordings.set(sid, bytes);
    return {
      RecordingSid: sid,
      RecordingUrl: `https://api.twilio.com/2010-04-01/Accounts/${this.accountSid}/Recordings/${sid}`,
    };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse, received: Buffer): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const request: TwilioRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      form: new URLSearchParams(received.toString('utf8')),
    };
    this.requests.push(request);
    const send = (status: number, body?: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
      send(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, headers);

    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected) return error(401, 20003, 'Authenticate');
    const base = `/2010-04-01/Accounts/${this.accountSid}`;
    if (!request.path.startsWith(`${base}/`))
      return error(404, 20404, `The requested resource ${request.path} was not found`);
    const rest = request.path.slice(base.length);

    const recording = /^\/Recordings\/(RE[0-9a-f]{32})\.mp3$/.exec(rest);
    if (request.method === 'GET' && recording) {
      const bytes = this.recordings.get(recording[1]);
      if (!bytes) return error(404, 20404, `The requested resource ${request.path} was not found`);
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(bytes.byteLength) });
      res.end(Buffer.from(bytes));
      return;
    }
    if (request.method === 'GET' && rest === '/AvailablePhoneNumbers/US/Local.json') {
      const areaCode = request.query.get('AreaCode') ?? '';
      const size = Number(request.query.get('PageSize') ?? 50);
      const numbers = (this.forSale.get(areaCode) ?? []).slice(0, size);
      return send(200, {
        uri: `${base}/AvailablePhoneNumbers/US/Local.json?${request.query.toString()}`,
        available_phone_numbers: numbers.map((phone) => ({
          friendly_name: `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
          phone_number: phone,
          region: 'CA',
          iso_country: 'US',
          address_requirements: 'none',
          beta: false,
          capabilities: { voice: true, SMS: true, MMS: true },
        })),
      });
    }

    const fault = this.faults.shift();
    if (fault === 'hang') return;
    if (fault === 'rate_limited') return error(429, 20429, 'Too Many Requests', { 'retry-after': '1' });
    if (fault === 'server_error') return error(500, 20500, 'Internal Server Error');
    if (fault !== undefined && fault !== 'sms_invalid_to') this.faults.unshift(fault);

    if (request.method === 'POST' && rest === '/IncomingPhoneNumbers.json') {
      const phone = request.form.get('PhoneNumber') ?? '';
      const areaCode = phone.slice(2, 5);
      const left = this.forSale.get(areaCode) ?? [];
      if (!left.includes(phone)) return error(400, 21422, 'PhoneNumber requested is not available');
      this.forSale.set(
        areaCode,
        left.filter((candidate) => candidate !== phone),
      );
      const number: OwnedNumber = {
        sid: `PN${randomBytes(16).toString('hex')}`,
        phone_number: phone,
        friendly_name: request.form.get('FriendlyName') ?? phone,
        voice_url: request.form.get('VoiceUrl'),
        status_callback: request.form.get('StatusCallback'),
        date_created: new Date().toUTCString().replace('GMT', '+0000'),
      };
      this.owned.push(number);
      return send(201, this.view(number));
    }
    if (request.method === 'GET' && rest === '/IncomingPhoneNumbers.json') {
      const friendly = request.query.get('FriendlyName');
      const phone = request.query.get('PhoneNumber');
      const matching = this.owned.filter(
        (number) => (!friendly || number.friendly_name === friendly) && (!phone || number.phone_number === phone),
      );
      const size = Math.min(Number(request.query.get('PageSize') ?? this.pageSize), this.pageSize);
      const page = Number(request.query.get('Page') ?? 0);
      const slice = matching.slice(page * size, page * size + size);
      const more = (page + 1) * size < matching.length;
      const query = (p: number) => {
        const next = new URLSearchParams(request.query);
        next.set('Page', String(p));
        next.set('PageSize', String(size));
        return `${base}/IncomingPhoneNumbers.json?${next.toString()}`;
      };
      return send(200, {
        incoming_phone_numbers: slice.map((number) => this.view(number)),
        page,
        page_size: size,
        start: page * size,
        end: page * size + slice.length - 1,
        uri: query(page),
        first_page_uri: query(0),
        previous_page_uri: page > 0 ? query(page - 1) : null,
        next_page_uri: more ? query(page + 1) : null,
      });
    }
    const release = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest);
    if (request.method === 'DELETE' && release) {
      const index = this.owned.findIndex((number) => number.sid === release[1]);
      if (index < 0) return error(404, 20404, `The requested resource ${request.path} was not found`);
      this.owned.splice(index, 1);
      return send(204);
    }
    if (request.method === 'POST' && rest === '/Messages.json') {
      const to = request.form.get('To') ?? '';
      const from = request.form.get('From');
      const service = request.form.get('MessagingServiceSid');
      const body = request.form.get('Body') ?? '';
      if (fault === 'sms_invalid_to' || !/^\+[1-9]\d{6,14}$/.test(to))
        return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      if (!from && !service)
        return error(400, 21603, "A 'From' or 'MessagingServiceSid' parameter is required to send a message.");
      if (!body) return error(400, 21602, 'Message body is required.');
      const message = { sid: `SM${randomBytes(16).toString('hex')}`, to, from, messaging_service_sid: service, body };
      this.messages.push(message);
      return send(201, {
        ...message,
        account_sid: this.accountSid,
        status: 'queued',
        direction: 'outbound-api',
        num_segments: '1',
        error_code: null,
        error_message: null,
        date_created: new Date().toUTCString().replace('GMT', '+0000'),
        uri: `${base}/Messages/${message.sid}.json`,
      });
    }
    return error(404, 20404, `The requested resource ${request.path} was not found`);
  }

  private view(number: OwnedNumber): Record<string, unknown> {
    return {
      ...number,
      account_sid: this.accountSid,
      voice_method: 'POST',
      status_callback_method: 'POST',
      capabilities: { voice: true, sms: true, mms: true, fax: false },
      date_updated: number.date_created,
      uri: `/2010-04-01/Accounts/${this.accountSid}/IncomingPhoneNumbers/${number.sid}.json`,
    };
  }
}

import type { TwilioConfig } from '@switchboard/providers';

/** The largest recording fetched: a four-hour call in Twilio's MP3 is well below it. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;
export const RECORDING_FETCH_TIMEOUT_MS = 60_000;

/** A recording Twilio would not or could not give (tried again later unless `final`). */
export class RecordingFetchFailed extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
    this.name = 'RecordingFetchFailed';
  }
}

/**
 * Fetches a call's recording from Twilio as MP3 (`<RecordingUrl>.mp3`, HTTP Basic with the account SID and auth token,
 * as Twilio's reference describes it), bounded in size and time. Only Twilio's own API host is asked (or the
 * stand-in's, `TWILIO_API_BASE_URL`): the URL comes from a verified callback, and its path alone is kept.
 */
export async function fetchTwilioRecording(
  config: TwilioConfig,
  recordingUrl: string,
): Promise<{ bytes: Uint8Array; contentType: string }> {
  let path: string;
  try {
    const url = new URL(recordingUrl);
    if (url.hostname !== 'api.twilio.com' && !config.apiBaseUrl) throw new Error('not Twilio');
    path = url.pathname;
  } catch {
    throw new RecordingFetchFailed(`not a Twilio recording URL: ${recordingUrl.slice(0, 200)}`, true);
  }
  if (!new RegExp(`^/2010-04-01/Accounts/${config.accountSid}/Recordings/RE[0-9a-f]{32}$`).test(path))
    throw new RecordingFetchFailed(`not a recording of our Twilio account: ${path.slice(0, 200)}`, true);
  const origin = config.apiBaseUrl?.origin ?? 'https://api.twilio.com';
  let response: Response;
  try {
    response = await fetch(`${origin}${path}.mp3`, {
      headers: { authorization: `Basic ${Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64')}` },
      signal: AbortSignal.timeout(RECORDING_FETCH_TIMEOUT_MS),
    });
  } catch (error) {
    throw new RecordingFetchFailed(`Twilio did not answer: ${(error as Error).message}`, false);
  }
  if (response.status === 404) throw new RecordingFetchFailed('Twilio has no such recording (deleted?)', true);
  if (!response.ok)
    throw new RecordingFetchFailed(
      `Twilio answered HTTP ${response.status}`,
      response.status < 500 && response.status !== 429,
    );
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > MAX_RECORDING_BYTES) throw new RecordingFetchFailed(`the recording is ${declared} bytes`, true);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength > MAX_RECORDING_BYTES)
    throw new RecordingFetchFailed(`the recording is ${bytes.byteLength} bytes`, true);
  return { bytes, contentType: 'audio/mpeg' };
}

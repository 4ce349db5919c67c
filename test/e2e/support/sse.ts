/** One Server-Sent Event as a client reads it: its `event:` name, its one `data:` line and its `id:`, if any. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a `text/event-stream` body block by block (blocks end with a blank line) and hands on each event that has a
 * name and data; comments (`: keep-alive`) have neither. Resolves when the server ends the stream or the reader's
 * request is aborted.
 */
export async function readServerSentEvents(
  body: ReadableStream<Uint8Array> | null,
  onEvent: (event: ServerSentEvent) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        const id = /^id: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) onEvent(id === undefined ? { event, data } : { event, data, id });
      }
    }
  } catch {
    // aborted by the test
  }
}

// Reading NATS's route protocol as it crosses a relay (bench/nats-routes.mjs).

/** A route relay's count of a stream of route protocol: each operation's lines, and the bytes. */
export function routeCounter() {
  const counts = { bytes: 0, ops: {} };
  let partial = '';
  let skip = 0;
  return {
    counts,
    /** Feeds a chunk of one direction; a message's payload (its size is on its line) is skipped, not parsed. */
    feed(chunk) {
      counts.bytes += chunk.length;
      let text = partial + chunk.toString('latin1');
      partial = '';
      for (;;) {
        if (skip > 0) {
          const taken = Math.min(skip, text.length);
          text = text.slice(taken);
          skip -= taken;
          if (skip > 0) return;
        }
        const end = text.indexOf('\r\n');
        if (end < 0) {
          partial = text;
          return;
        }
        const line = text.slice(0, end);
        text = text.slice(end + 2);
        const [op, ...args] = line.split(' ');
        if (!op) continue;
        counts.ops[op] = (counts.ops[op] ?? 0) + 1;
        // RMSG <account> <subject> [reply] <size>, HMSG ... <header size> <total size>: the payload and its CRLF.
        if (op === 'RMSG' || op === 'HMSG') skip = Number(args.at(-1)) + 2;
      }
    },
  };
}

// The node flags and environment every service runs with, wherever it runs: the image's CMD and ENV
// (deploy/docker/Dockerfile, checked against these by tools/deploy/check.mjs), `npm start` (tools/dev/start.mjs) and
// the benchmarks and fault tests (tools/bench/lib/system.mjs). docs/adr/0050-young-generation-size.md,
// docs/adr/0100-one-malloc-arena.md, docs/adr/0103-service-memory-bounds.md, docs/adr/0106-idle-heap-trim.md and
// docs/adr/0113-old-generation-growth-one-and-a-half.md say why (0107 before it).
//
// The young generation's bound is the one flag that differs between services, so it is not in the command: it is
// NODE_OPTIONS in the environment (SERVICE_ENV, the image's ENV), and the gateway's own (SERVICE_ENV_OF.gateway) is
// set by its compose service and Kubernetes Deployment, both checked by tools/deploy/check.mjs.
// --max-semi-space-size=32 (every service but the gateway): a 32 MiB young generation (V8's default tops out at
// 16 MiB) halves the number of scavenges under load; each one stops the service for 2-10 ms on a busy 2-core machine,
// and those stops were most of the API's p99 at half rate. Costs 20-30 MiB more resident memory under load (ADR 0050).
// --max-semi-space-size=16 (the gateway): it allocates half of what it did when ADR 0050 was measured (62 KiB per
// list request against 112-149), so it scavenges at 16 about as often as it did then at 32, with a young generation
// 32 MiB smaller: its peak under the event load was at the 200 MiB bound (ADR 0116).
//
// --expose-gc: lets the service's idle heap trim (libs/service-runtime, ADR 0106) run one scavenge once it has been
// idle for 10 s, which gives the young generation those semi-spaces grew back to the system (64 MiB resident that V8
// would otherwise keep until its next collection, minutes away at an idle service's allocation rate).
//
// --heap-growing-percent=50: after each full collection V8 lets the old generation grow by half of what survived it
// before collecting again. By default it picks up to four times on a machine with 2 GiB or more, whatever the
// container's limit, and the gateway's resident memory drifted to 248-286 MiB under minutes of full load (ADR 0107);
// at twice, it still peaked at 211 under the event load after the API load; at one and a half, 189-195, with 11 full
// collections in 8 minutes of full load against 8 and no CPU per request measurable between the two (ADR 0113).
//
// No --max-old-space-size: a limit under 2 GiB makes V8 collect the old generation far more often, and cost the
// gateway 14-15% more CPU per request at the API's maximum (ADR 0103).
export const SERVICE_NODE_FLAGS = ['--heap-growing-percent=50', '--expose-gc'];

// MALLOC_ARENA_MAX=1: glibc gives each thread that allocates its own malloc arena (up to 8 per core), and keeps what
// a thread freed in it; one of V8's or libuv's threads left 14 MiB resident in a second arena in four services of
// five after start. With one arena they reuse the main one: 15 MiB less resident idle per service (ADR 0100).
//
// MALLOC_MMAP_THRESHOLD_=32768: glibc serves blocks under the threshold from its heap, and gives freed memory back
// only from the heap's top; freed blocks below a block still in use stay resident. V8's compiler and parser take
// their working memory in 32 KiB blocks (their zones' largest segments) and free them at once; parsing the 5-6 MB
// bundle at start alone takes about 20 MiB of them, interleaved with small blocks kept for the process's life, which
// left 18-22 MiB of heap resident in every service after start (malloc_trim gave back 11-15). At 32 KiB those blocks
// are mapped on their own and unmapped when freed; the threshold fixed also stops glibc from raising it, and keeps
// the heap's top returned past 128 KiB. The gateway makes 0.26 more mmap and munmap pairs per request (ADR 0112).
export const SERVICE_ENV = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '32768',
  NODE_OPTIONS: '--max-semi-space-size=32',
};

/** What a service's environment sets beside SERVICE_ENV (its deploy manifests, `npm start`, the benchmarks). */
export const SERVICE_ENV_OF = { gateway: { NODE_OPTIONS: '--max-semi-space-size=16' } };

/**
 * The environment a service runs with, over `env` (the caller's: its variables win, and its NODE_OPTIONS, such as
 * `--enable-source-maps`, are added after the service's, so that a flag given there wins too).
 */
export function serviceEnvOf(app, env = {}) {
  const own = { ...SERVICE_ENV, ...(SERVICE_ENV_OF[app] ?? {}) };
  const nodeOptions = [own.NODE_OPTIONS, env.NODE_OPTIONS].filter(Boolean).join(' ');
  return { ...own, ...env, NODE_OPTIONS: nodeOptions };
}

// The node flags and environment every service runs with, wherever it runs: the image's CMD and ENV
// (deploy/docker/Dockerfile, checked against these by tools/deploy/check.mjs), `npm start` (tools/dev/start.mjs) and
// the benchmarks and fault tests (tools/bench/lib/system.mjs). docs/adr/0050-young-generation-size.md and
// docs/adr/0100-one-malloc-arena.md say why.
//
// --max-semi-space-size=32: a 32 MiB young generation (V8's default tops out at 16 MiB) halves the number of
// scavenges under load; each one stops the service for 2-10 ms on a busy 2-core machine, and those stops were
// most of the API's p99 at half rate. Costs 20-30 MiB more resident memory under load.
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];

// MALLOC_ARENA_MAX=1: glibc gives each thread that allocates its own malloc arena (up to 8 per core), and keeps what
// a thread freed in it; one of V8's or libuv's threads left 14 MiB resident in a second arena in four services of
// five after start. With one arena they reuse the main one: 15 MiB less resident idle per service (ADR 0100).
export const SERVICE_ENV = { MALLOC_ARENA_MAX: '1' };

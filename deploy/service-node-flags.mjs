// The node flags every service runs with, wherever it runs: the image's CMD (deploy/docker/Dockerfile, checked
// against this list by tools/deploy/check.mjs), `npm start` (tools/dev/start.mjs) and the benchmarks and fault
// tests (tools/bench/lib/system.mjs). docs/adr/0050-young-generation-size.md says why.
//
// --max-semi-space-size=32: a 32 MiB young generation (V8's default tops out at 16 MiB) halves the number of
// scavenges under load; each one stops the service for 2-10 ms on a busy 2-core machine, and those stops were
// most of the API's p99 at half rate. Costs 20-30 MiB more resident memory under load.
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];

// The environment every service process runs with, wherever it runs: `npm start`, the benchmarks, and the image
// (deploy/docker/Dockerfile sets the same, tools/deploy/deploy-rules.spec.ts checks; compose and Kubernetes inherit it).
//
// glibc's malloc, for the idle-memory target (<= 150 MiB resident per service, docs/performance.md). Measured in
// interleaved pairs on 2026-11-28, each service idle 30 s after a warm-up, two rounds: without these, numbers-billing
// settled at 173-177 MiB and the gateway at up to 179; MALLOC_ARENA_MAX=1 alone left numbers-billing at 147 and the
// gateway at up to 157; both together, every service at 83-129 MiB. No V8 flag is needed for it.
// - MALLOC_ARENA_MAX=1: glibc gives each thread that allocates (libuv's pool, V8's compiler and GC threads) its own
//   arena, up to eight per core, and keeps what each arena grew to.
// - MALLOC_MMAP_THRESHOLD_=32768: blocks from 32 KiB up are mapped on their own and unmapped when freed, instead of
//   staying in the heap (the fixed threshold also stops glibc raising it as the process runs).
export const SERVICE_ENV = Object.freeze({
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '32768',
});

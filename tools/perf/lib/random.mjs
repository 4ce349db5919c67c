// The perf kit's seeded randomness: what a run generates (calls, items, an order of numbers) is the same in the next
// run, so two runs measure the same work.

/** mulberry32: a small, fast, deterministic generator of numbers in [0, 1). */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `list` shuffled in place (Fisher-Yates) by the generator of `seed`, and returned. */
export function shuffle(list, seed = 42) {
  const random = mulberry32(seed);
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

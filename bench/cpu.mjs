// The machine's CPU counters, for benches that run where Playwright is not installed (bench/ab.mjs on a bare machine).
import { readFileSync } from 'node:fs';

/** The machine's CPU counters (Linux /proc/stat, first line), for `stealSince`; null where unavailable. */
export function cpuSample() {
  try {
    return readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return null;
  }
}

/**
 * The share of CPU time the hypervisor took from this virtual machine (`steal`) since `sample`, e.g. "12%": on shared
 * cloud cores it explains runs that are slow for no reason of ours. "unknown" where not measurable.
 */
export function stealSince(sample) {
  const now = cpuSample();
  if (!sample || !now) return 'unknown';
  const d = now.map((x, i) => x - sample[i]);
  const total = d.reduce((a, b) => a + b, 0);
  return total > 0 ? `${Math.round((100 * d[7]) / total)}%` : 'unknown';
}

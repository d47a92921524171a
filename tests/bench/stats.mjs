/** Percentile of a list of numbers (nearest rank). */
export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const ms = (n) => `${n.toFixed(0)} ms`;
export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

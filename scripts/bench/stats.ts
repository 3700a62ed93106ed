// Order statistics for benchmark samples: the median and the spread around it.

/** The value below which `fraction` of the samples lie (linear interpolation). */
export function quantile(samples: readonly number[], fraction: number): number {
  if (samples.length === 0) throw new Error("quantile: no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const low = sorted[lower] as number;
  const high = sorted[upper] as number;
  return low + (high - low) * (position - lower);
}

export function median(samples: readonly number[]): number {
  return quantile(samples, 0.5);
}

export interface Summary {
  median: number;
  /** Interquartile range: the middle half of the samples. */
  p25: number;
  p75: number;
  samples: number;
}

export function summarize(samples: readonly number[]): Summary {
  return {
    median: median(samples),
    p25: quantile(samples, 0.25),
    p75: quantile(samples, 0.75),
    samples: samples.length,
  };
}

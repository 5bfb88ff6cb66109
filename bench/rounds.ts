import { median } from "./statistics.js";

/** A product measured against its baseline in alternating rounds. */
export interface Comparison {
  /** Median rate of each side over the rounds. */
  readonly product: number;
  readonly baseline: number;
  /** Median of the rounds' ratios (product / baseline), and their spread. */
  readonly ratio: number;
  readonly lowest: number;
  readonly highest: number;
}

/**
 * Runs baseline, product, baseline, product... (`rounds` of each), so a machine that gets busier
 * or quieter meanwhile weighs on both sides alike; each round function resolves to its rate.
 * With `productFirst`, each round's product side runs first (when the baseline replays what the
 * product made in the same round).
 */
export async function alternate(
  name: string,
  rounds: number,
  unit: string,
  baselineRound: (round: number) => Promise<number>,
  productRound: (round: number) => Promise<number>,
  { productFirst = false }: { readonly productFirst?: boolean } = {},
): Promise<Comparison> {
  const baselineRates: number[] = [];
  const productRates: number[] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round += 1) {
    if (productFirst) {
      productRates.push(await productRound(round));
      baselineRates.push(await baselineRound(round));
    } else {
      baselineRates.push(await baselineRound(round));
      productRates.push(await productRound(round));
    }
    ratios.push(productRates.at(-1)! / baselineRates.at(-1)!);
    process.stderr.write(
      `  ${name} round ${round}/${rounds}: baseline ${Math.round(baselineRates.at(-1)!)} ${unit}, product ${Math.round(productRates.at(-1)!)} ${unit}, ratio ${ratios.at(-1)!.toFixed(2)}\n`,
    );
  }
  return { product: median(productRates), baseline: median(baselineRates), ratio: median(ratios), lowest: Math.min(...ratios), highest: Math.max(...ratios) };
}

/**
 * The summary line: `bench NAME: P UNIT vs baseline B UNIT = ratio R (rounds LOW-HIGH; goal >= G: met) [settings]`.
 * `settings` names whatever differs from the product's defaults, and how it was run.
 */
export function ratioLine(name: string, unit: string, comparison: Comparison, goal: number, settings: readonly string[] = []): string {
  const { product, baseline, ratio, lowest, highest } = comparison;
  const verdict = ratio >= goal ? "met" : "missed";
  const spread = `rounds ${lowest.toFixed(2)}-${highest.toFixed(2)}`;
  const notes = settings.length > 0 ? ` [${settings.join("; ")}]` : "";
  return `bench ${name}: ${Math.round(product)} ${unit} vs baseline ${Math.round(baseline)} ${unit} = ratio ${ratio.toFixed(2)} (${spread}; goal >= ${goal}: ${verdict})${notes}`;
}

/** The summary line of a benchmark with an absolute goal: `bench NAME: T ms (median of N runs; goal < G ms: met)`. */
export function durationLine(name: string, medianMs: number, runs: number, goalMs: number, settings: readonly string[] = []): string {
  const verdict = medianMs < goalMs ? "met" : "missed";
  const notes = settings.length > 0 ? ` [${settings.join("; ")}]` : "";
  return `bench ${name}: ${medianMs.toFixed(1)} ms (median of ${runs} runs; goal < ${goalMs} ms: ${verdict})${notes}`;
}

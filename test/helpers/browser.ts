import { existsSync } from "node:fs";
import type { SkipFn, TestFn } from "ava";
import { chromium, type Browser } from "playwright-core";

/** Debian's Chromium: a browser downloaded by Playwright cannot be fetched on these machines. */
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why browser tests cannot run here, or undefined when they can. */
export const browserMissing: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath} (install Debian's chromium package, or set CHROMIUM_PATH)`;

/**
 * `test.serial` when Chromium is here (one browser at a time on a small machine), `test.skip`
 * otherwise, so a machine without a browser says so in the run's skipped count instead of passing
 * silently.
 */
export function browserTest<Context>(test: TestFn<Context>): SkipFn<Context> {
  if (browserMissing === undefined) return test.serial;
  console.warn(`browser tests skipped: ${browserMissing}`);
  return test.skip;
}

/** A headless Chromium closed when the test ends. */
export async function launchBrowser(t: { teardown(fn: () => Promise<void>): void }): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ["--no-sandbox"] });
  t.teardown(() => browser.close());
  return browser;
}

import type { LandingPageRepository } from "./ports.js";

/** `base`, or `base-2`, `base-3`... the first the company does not use yet (for slugs the caller did not choose). */
export async function uniqueSlug(pages: LandingPageRepository, companyId: string, base: string): Promise<string> {
  for (let n = 1; ; n++) {
    const slug = n === 1 ? base : `${base.slice(0, 95)}-${n}`;
    if (!(await pages.slugTaken(companyId, slug))) return slug;
  }
}

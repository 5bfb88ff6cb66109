import type { FormThemePatch } from "./commands.js";
import type { FormTheme } from "./model.js";

/** A theme with the given keys replaced (compat-reference §18: `theme` is merged). */
export const mergeTheme = (theme: FormTheme, patch: FormThemePatch | undefined): FormTheme =>
  patch ? { ...theme, ...Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) } : theme;

/**
 * A company's email theme (spec, PATCH /companies/{companyId} `emailTheme`): a preset plus
 * overrides of colors, typography and layout. Companies store only what they set; emails are
 * rendered with the resolved theme (preset values under the overrides).
 */

export const THEME_PRESETS = ["default", "soft", "editorial", "bold"] as const;
export type ThemePreset = (typeof THEME_PRESETS)[number];

export const THEME_COLOR_KEYS = ["primary", "background", "surface", "text", "mutedText", "heading", "border", "link"] as const;
export type ThemeColorKey = (typeof THEME_COLOR_KEYS)[number];

/** Numeric settings and the range each is clamped to (pixels, or a ratio for line height). */
export const THEME_TYPOGRAPHY_RANGES = {
  baseFontSize: [12, 22],
  leadFontSize: [14, 28],
  baseLineHeight: [1, 2.2],
  heading1Size: [20, 56],
  heading2Size: [18, 44],
  heading3Size: [16, 34],
  buttonFontSize: [12, 24],
} as const;
export const THEME_LAYOUT_RANGES = {
  contentWidth: [480, 800],
  containerPaddingX: [0, 64],
  containerPaddingY: [0, 64],
  blockSpacing: [0, 64],
  baseRadius: [0, 32],
  sectionPadding: [0, 64],
  buttonPaddingX: [8, 64],
  buttonPaddingY: [4, 32],
  borderedBlockPadding: [0, 48],
} as const;
export type ThemeTypographyKey = keyof typeof THEME_TYPOGRAPHY_RANGES;
export type ThemeLayoutKey = keyof typeof THEME_LAYOUT_RANGES;

/** What the renderer uses: every value present. */
export interface EmailTheme {
  readonly presetId: ThemePreset;
  readonly colors: Readonly<Record<ThemeColorKey, string>>;
  readonly typography: Readonly<Record<ThemeTypographyKey, number>>;
  readonly layout: Readonly<Record<ThemeLayoutKey, number>>;
}

/** What a company stores: only what it set. */
export interface StoredEmailTheme {
  readonly presetId?: ThemePreset;
  readonly colors?: Partial<Record<ThemeColorKey, string>>;
  readonly typography?: Partial<Record<ThemeTypographyKey, number>>;
  readonly layout?: Partial<Record<ThemeLayoutKey, number>>;
}

const BASE: EmailTheme = {
  presetId: "default",
  colors: {
    primary: "#2563EB",
    background: "#F4F4F5",
    surface: "#FFFFFF",
    text: "#27272A",
    mutedText: "#71717A",
    heading: "#18181B",
    border: "#E4E4E7",
    link: "#2563EB",
  },
  typography: { baseFontSize: 16, leadFontSize: 18, baseLineHeight: 1.5, heading1Size: 32, heading2Size: 24, heading3Size: 20, buttonFontSize: 16 },
  layout: {
    contentWidth: 600,
    containerPaddingX: 24,
    containerPaddingY: 32,
    blockSpacing: 16,
    baseRadius: 6,
    sectionPadding: 24,
    buttonPaddingX: 24,
    buttonPaddingY: 12,
    borderedBlockPadding: 16,
  },
};

/** Each preset's values; a stored theme's overrides apply on top. */
export const PRESET_THEMES: Readonly<Record<ThemePreset, EmailTheme>> = {
  default: BASE,
  soft: {
    presetId: "soft",
    colors: { ...BASE.colors, background: "#FAF7F2", text: "#3F3A36", mutedText: "#8A817A", heading: "#2E2A27", border: "#EDE6DD" },
    typography: { ...BASE.typography, baseLineHeight: 1.65 },
    layout: { ...BASE.layout, baseRadius: 14, blockSpacing: 20, buttonPaddingX: 28 },
  },
  editorial: {
    presetId: "editorial",
    colors: { ...BASE.colors, background: "#FFFFFF", text: "#1F1F1F", mutedText: "#6B6B6B", heading: "#111111", border: "#DDDDDD", link: "#111111" },
    typography: { ...BASE.typography, baseFontSize: 17, leadFontSize: 20, baseLineHeight: 1.7, heading1Size: 40, heading2Size: 28, heading3Size: 22 },
    layout: { ...BASE.layout, contentWidth: 640, baseRadius: 0, containerPaddingX: 32 },
  },
  bold: {
    presetId: "bold",
    colors: { ...BASE.colors, background: "#111827", surface: "#FFFFFF", heading: "#030712", border: "#111827" },
    typography: { ...BASE.typography, heading1Size: 40, heading2Size: 30, buttonFontSize: 18 },
    layout: { ...BASE.layout, baseRadius: 10, buttonPaddingX: 32, buttonPaddingY: 16 },
  },
};

export const clampTo = (value: number, [min, max]: readonly [number, number]): number => Math.min(max, Math.max(min, value));

/**
 * The theme an email is rendered with: the stored preset (default when none) under the stored
 * overrides, with `primaryColor` as the primary unless the theme sets one (spec).
 */
export function resolveEmailTheme(stored: StoredEmailTheme | null, primaryColor: string | null): EmailTheme {
  const preset = PRESET_THEMES[stored?.presetId ?? "default"];
  return {
    presetId: preset.presetId,
    colors: { ...preset.colors, ...(primaryColor ? { primary: primaryColor } : {}), ...stored?.colors },
    typography: { ...preset.typography, ...stored?.typography },
    layout: { ...preset.layout, ...stored?.layout },
  };
}

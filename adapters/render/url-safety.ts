/**
 * Which URL attributes of a rendered email are refused. Merge variables may fill any part of an
 * attribute (`href="{{url}}"`, `href="java{{rest}}"`), so the finished document is checked, not
 * the variables: a scheme that runs code or carries a whole document never leaves the renderer.
 */

/** Attributes a mail client may load or navigate to (`xlink:href` as written in SVG). */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set(["href", "src", "action", "formaction", "background", "poster", "xlink:href"]);

/** What browsers drop around a URL and ignore inside its scheme. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
const CONTROL_OR_SPACE = /[\u0000-\u0020\u007f]/g;

const REFUSED_SCHEMES: ReadonlySet<string> = new Set(["javascript", "vbscript", "data"]);

/** Attributes that only ever load an image, where a `data:image/...` URL (an inline picture) stays harmless. */
const IMAGE_ATTRIBUTES: ReadonlySet<string> = new Set(["background", "poster"]);

/**
 * The scheme a browser would read, from an attribute value whose character references the HTML
 * parser has already decoded: surrounding white space and control characters dropped, those
 * inside the scheme ignored (`java\tscript:`), case folded. Null for a URL without a scheme.
 */
export function schemeOf(value: string): string | null {
  const colon = value.indexOf(":");
  if (colon < 0) return null;
  const scheme = value.slice(0, colon).replace(CONTROL_OR_SPACE, "").toLowerCase();
  return /^[a-z][a-z0-9+.-]*$/.test(scheme) ? scheme : null;
}

/** True when `element`'s `attribute` must not carry `value`. Inline images keep working: `data:image/...` in an `<img src>`, `background` or `poster`. */
export function isRefusedUrl(element: string, attribute: string, value: string): boolean {
  const scheme = schemeOf(value);
  if (scheme === null || !REFUSED_SCHEMES.has(scheme)) return false;
  const loadsAnImage = (element === "img" && attribute === "src") || IMAGE_ATTRIBUTES.has(attribute);
  return !(scheme === "data" && loadsAnImage && /^data:image\//i.test(value.replace(CONTROL_OR_SPACE, "")));
}

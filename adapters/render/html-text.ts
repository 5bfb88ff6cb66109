/** Escapes text for HTML content and double-quoted attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** Subject and preview text fit on one line. */
export const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

const SAFE_URL = /^(?:https?:\/\/|mailto:|tel:|#)/i;

/** A link or image address as the email may carry it: http(s), mailto, tel or an anchor; anything else becomes `#`. */
export const safeUrl = (url: string): string => (SAFE_URL.test(url.trim()) ? url.trim() : "#");

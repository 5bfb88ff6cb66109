/**
 * base64url (RFC 4648 §5, unpadded) of UTF-8 text, with the web platform's TextEncoder and
 * btoa/atob rather than Buffer, so the core needs no Node API.
 */
export function encodeBase64Url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The text, or null when the input is not base64url of UTF-8 (padding is accepted). */
export function decodeBase64Url(encoded: string): string | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(encoded)) return null;
  try {
    const binary = atob(encoded.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/"));
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

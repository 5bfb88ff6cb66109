import { token } from "../shared/token.js";

/**
 * Encrypts secrets before they are stored (DKIM private keys, bucket credentials, webhook
 * secrets) and decrypts them for use. Sealed text is opaque and authenticated: tampering makes
 * `open` throw. Production seals with the server's SECRET_KEY.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}
export const SecretBox = token<SecretBox>("lifecycle.SecretBox");

import { TranslationError, type Translator } from "../../core/emails/ports.js";

/** The Translator of a server with no translation service: nothing can be translated. */
export class NoTranslator implements Translator {
  readonly configured = false;

  translate(): Promise<string[]> {
    return Promise.reject(new TranslationError("no translation service is configured (TRANSLATION_URL)", true));
  }
}

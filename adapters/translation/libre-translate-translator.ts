import * as t from "io-ts";
import { TranslationError, type Translator } from "../../core/emails/ports.js";
import type { TextFormat, TranslatableText } from "../../core/emails/translatable-texts.js";
import { HttpRequestError, type HttpClient } from "../../core/ports/http-client.js";

export interface TranslationService {
  /** The service's origin (and path prefix): `POST {url}/translate`. */
  readonly url: string;
  readonly apiKey?: string | undefined;
}

const Translated = t.type({ translatedText: t.array(t.string) });

/** Statuses a second try cannot change: bad input (an unsupported language) or a refused key. */
const PERMANENT = new Set([400, 401, 403, 404, 413, 422]);

/**
 * A LibreTranslate-compatible service (self-hostable; its `POST /translate` takes `q` as a list,
 * `source: auto`, `target`, `format` text or html, and `api_key`). A locale with a region or
 * script the service refuses (`es-MX`) is asked again in its language (`es`).
 */
export class LibreTranslateTranslator implements Translator {
  readonly configured = true;

  constructor(
    private readonly service: TranslationService,
    private readonly http: HttpClient,
  ) {}

  async translate(texts: readonly TranslatableText[], locale: string): Promise<string[]> {
    const out: string[] = texts.map((entry) => entry.text);
    for (const format of ["text", "html"] as const) {
      const indexes = texts.flatMap((entry, index) => (entry.format === format && entry.text.trim() !== "" ? [index] : []));
      if (indexes.length === 0) continue;
      const translated = await this.inLocale(
        indexes.map((index) => texts[index]!.text),
        format,
        locale,
      );
      indexes.forEach((index, position) => (out[index] = translated[position]!));
    }
    return out;
  }

  private async inLocale(texts: string[], format: TextFormat, locale: string): Promise<string[]> {
    const language = locale.split("-")[0]!;
    try {
      return await this.request(texts, format, locale);
    } catch (error) {
      if (language === locale || !(error instanceof TranslationError) || !error.permanent) throw error;
      return this.request(texts, format, language);
    }
  }

  private async request(texts: string[], format: TextFormat, target: string): Promise<string[]> {
    let response;
    try {
      response = await this.http.send({
        method: "POST",
        url: `${this.service.url.replace(/\/+$/, "")}/translate`,
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ q: texts, source: "auto", target, format, ...(this.service.apiKey ? { api_key: this.service.apiKey } : {}) }),
      });
    } catch (error) {
      if (error instanceof HttpRequestError) throw new TranslationError(`the translation service did not answer: ${error.message}`, false);
      throw error;
    }
    if (response.status !== 200) {
      throw new TranslationError(`the translation service answered ${response.status}: ${errorOf(response.body)}`, PERMANENT.has(response.status));
    }
    const decoded = Translated.decode(parse(response.body));
    if (decoded._tag === "Left" || decoded.right.translatedText.length !== texts.length) {
      throw new TranslationError("the translation service answered without one translatedText per text", false);
    }
    return decoded.right.translatedText;
  }
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return null;
  }
}

const errorOf = (body: string): string => {
  const parsed = parse(body) as { error?: unknown } | null;
  return typeof parsed?.error === "string" ? parsed.error.slice(0, 300) : body.slice(0, 300);
};

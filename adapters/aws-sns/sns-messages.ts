import Validator from "sns-payload-validator";

export type SnsMessage = Validator.SnsPayload;

/**
 * Amazon SNS messages, checked against their signature with the certificate at SigningCertURL
 * (which must be an SNS host on amazonaws.com). Certificates are cached per process.
 */
export class SnsMessages {
  private readonly validator = new Validator({ useCache: true, maxCerts: 100 });

  /** The message when its signature holds; rejects otherwise. */
  verify(body: string | Record<string, unknown>): Promise<SnsMessage> {
    return this.validator.validate(body as never);
  }

  /** True when the URL is one SNS itself would give: https on an amazonaws.com host. */
  static isAmazonUrl(url: string | undefined): boolean {
    if (!url) return false;
    try {
      const parsed = new URL(url);
      return parsed.protocol === "https:" && (parsed.hostname.endsWith(".amazonaws.com") || parsed.hostname.endsWith(".amazonaws.com.cn")) && parsed.port === "";
    } catch {
      return false;
    }
  }

  /** Confirms a subscription by visiting its SubscribeURL; only Amazon's own URLs are visited. */
  async confirmSubscription(message: SnsMessage): Promise<boolean> {
    if (!SnsMessages.isAmazonUrl(message.SubscribeURL)) return false;
    const response = await fetch(message.SubscribeURL!, { redirect: "error", signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.ok;
  }
}

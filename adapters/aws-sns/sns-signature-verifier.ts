import { left, right, type Either } from "fp-ts/lib/Either.js";
import Validator from "sns-payload-validator";
import type { SnsMessage, SnsVerifier } from "../../core/delivery/ports.js";

/**
 * Amazon SNS messages, checked against their signature with the certificate at SigningCertURL
 * (which must be an SNS host on amazonaws.com). Certificates are cached per process.
 */
export class SnsSignatureVerifier implements SnsVerifier {
  private readonly validator = new Validator({ useCache: true, maxCerts: 100 });

  async verify(body: Readonly<Record<string, unknown>>): Promise<Either<string, SnsMessage>> {
    try {
      const payload = await this.validator.validate(body as never);
      return right({
        Type: payload.Type,
        MessageId: payload.MessageId,
        TopicArn: String(payload.TopicArn),
        Message: payload.Message,
        SubscribeURL: payload.SubscribeURL,
      });
    } catch (error) {
      return left(error instanceof Error ? error.message : String(error));
    }
  }
}

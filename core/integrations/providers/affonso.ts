import { activities, INTEGRATION_EVENTS, skipped, type MappedRecord } from "../model.js";
import { date, email, obj, splitName, str, type Json, type ProviderMapping } from "./payload.js";

/** A referral of the affiliate program (webhook `referral.*`, or a page of the referral backfill). */
export function affonsoReferral(data: Json, converted: boolean, fallback: Date): MappedRecord {
  const id = str(data.id);
  const address = email(data.email) ?? email(obj(data.customer)?.email);
  if (!id || !address) return skipped("the referral has no email");
  const affiliateId = str(data.affiliate_id) ?? str(obj(data.affiliate)?.id);
  const at = date(converted ? (data.converted_at ?? data.updated_at ?? data.created_at) : data.created_at, fallback);
  return activities({
    email: address,
    ...splitName(data.name),
    attributes: affiliateId ? { affonsoReferredBy: affiliateId } : {},
    events: [
      {
        name: converted ? INTEGRATION_EVENTS.referralConverted : INTEGRATION_EVENTS.referralCreated,
        properties: { referralId: id, ...(affiliateId ? { affiliateId } : {}), provider: "affonso" },
        occurredAt: at,
        eventId: `affonso:referral:${id}:${converted ? "converted" : "created"}`,
      },
    ],
  });
}

/** Affonso webhooks (id, type, created_at, data): affiliates joining, referrals made and converted. */
export const affonsoMapping: ProviderMapping = {
  identify: (body) => {
    const eventId = str(body.id);
    const eventType = str(body.type) ?? str(body.event);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const data = obj(body.data);
    if (!data) return skipped("the payload has no data");
    const type = str(body.type) ?? str(body.event);
    const at = date(body.created_at, receivedAt);
    switch (type) {
      case "affiliate.created":
      case "affiliate.approved": {
        const id = str(data.id);
        const address = email(data.email);
        if (!id || !address) return skipped("the affiliate has no email");
        return activities({
          email: address,
          ...splitName(data.name),
          attributes: { affonsoAffiliateId: id },
          events: [
            {
              name: INTEGRATION_EVENTS.affiliateJoined,
              properties: { affiliateId: id, provider: "affonso" },
              occurredAt: at,
              eventId: `affonso:affiliate:${id}`,
            },
          ],
        });
      }
      case "referral.created":
        return affonsoReferral(data, false, at);
      case "referral.converted":
      case "referral.customer":
        return affonsoReferral(data, true, at);
      default:
        return skipped(`${type ?? "an untyped event"} is not mapped`);
    }
  },
};

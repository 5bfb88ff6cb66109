import { activities, INTEGRATION_EVENTS, skipped } from "../model.js";
import { date, email, header, obj, str, type Json, type ProviderMapping } from "./payload.js";

/** The user's primary email address, else the first one. */
function primaryEmail(user: Json): string | undefined {
  const addresses = Array.isArray(user.email_addresses) ? user.email_addresses.map(obj).filter((a): a is Json => a !== undefined) : [];
  const primary = addresses.find((address) => str(address.id) === str(user.primary_email_address_id)) ?? addresses[0];
  return email(primary?.email_address);
}

/** Clerk webhooks (Svix; the event ID is the signed svix-id). A new user is a signup; an updated one refreshes the contact. */
export const clerkMapping: ProviderMapping = {
  identify: (body, headers) => {
    const eventId = header(headers, "svix-id");
    const eventType = str(body.type);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { receivedAt }) => {
    const user = obj(body.data);
    const type = str(body.type);
    if (type !== "user.created" && type !== "user.updated") return skipped(`${type ?? "an untyped event"} is not mapped`);
    if (!user) return skipped("the payload has no user");
    const address = primaryEmail(user);
    const userId = str(user.id);
    if (!address || !userId) return skipped("the user has no email address");
    const at = date(user.created_at ?? body.timestamp, receivedAt);
    return activities({
      email: address,
      ...(str(user.first_name) ? { firstName: str(user.first_name)! } : {}),
      ...(str(user.last_name) ? { lastName: str(user.last_name)! } : {}),
      attributes: { clerkUserId: userId },
      events:
        type === "user.created"
          ? [{ name: INTEGRATION_EVENTS.signup, properties: { userId, provider: "clerk" }, occurredAt: at, eventId: `clerk:signup:${userId}` }]
          : [],
    });
  },
};

/**
 * The merge-tag names a contact fills. Its fields and custom attributes are available at the
 * top level (`{{ firstName }}`, `{{ plan }}`) and under `subscriber` (`{{ subscriber.firstName }}`);
 * the fields win over custom attributes of the same name.
 */
export interface ContactForMerge {
  readonly id?: string | null;
  readonly email: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly externalId?: string | null;
  readonly customAttributes?: Readonly<Record<string, unknown>>;
}

export function contactVariables(contact: ContactForMerge): Record<string, unknown> {
  const fields = {
    ...(contact.id ? { id: contact.id } : {}),
    email: contact.email,
    firstName: contact.firstName ?? null,
    lastName: contact.lastName ?? null,
    ...(contact.externalId ? { externalId: contact.externalId } : {}),
  };
  const merged = { ...(contact.customAttributes ?? {}), ...fields };
  return { ...merged, subscriber: { ...merged, customAttributes: contact.customAttributes ?? {} } };
}

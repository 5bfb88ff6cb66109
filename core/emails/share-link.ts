/**
 * A template's public view-in-browser link (compat-reference §12 share-link): anyone with the URL
 * sees an anonymised copy (a sample contact, an inert unsubscribe link, no tracking). One live
 * link per template; revoking deletes it, so sharing again mints a different URL.
 */
export interface TemplateShareLink {
  readonly templateId: string;
  readonly companyId: string;
  readonly token: string;
  readonly createdAt: Date;
}

/** The public page of a share token (hosts/http/public/shared-emails.ts serves it). */
export const shareUrlOf = (baseUrl: string, token: string): string => `${baseUrl.replace(/\/+$/, "")}/share/emails/${token}`;

/** The contact a shared copy is rendered for: nobody's real data. */
export const SAMPLE_CONTACT = { email: "jane.doe@example.com", firstName: "Jane", lastName: "Doe" } as const;

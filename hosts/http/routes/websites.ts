import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateSendingDomainCommand } from "../../../core/company/commands.js";
import { CreateSendingDomain } from "../../../core/company/create-sending-domain.js";
import { DeleteSendingDomain } from "../../../core/company/delete-sending-domain.js";
import { GetSendingDomain } from "../../../core/company/get-sending-domain.js";
import { ListSendingDomains } from "../../../core/company/list-sending-domains.js";
import { VerifySendingDomain } from "../../../core/company/verify-sending-domain.js";
import type { SendingDomainView } from "../../../core/company/view.js";
import { toWebsiteView, WebsiteView } from "../../../core/company/website-view.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** `{domain}` is the domain name (URL-encoded); a sending-domain ID is accepted too. */
const WebsitePath = t.type({ domain: TrimmedNonEmpty }, "WebsitePath");

const SHAPE =
  "A website is a sending domain (the same records as /sending-domains) plus dnsVerified (every record found as published at the last check), " +
  "readyToSend and readiness.reason (why it cannot send yet), dnsRecords {dkimRecord, spfRecord, dmarcRecord, returnPathRecord} and the status of dkim, spf, dmarc and mailFrom " +
  "(verified, missing, mismatch, unreachable, not_checked). A domain the operator verified is ready to send whatever DNS shows.";

const NOT_FOUND = "404 'Sending domain not found' (also for another company's domain)";

/**
 * `/websites`: the official client's name for sending domains, served by the sending-domain use
 * cases, in the client's shapes (compat-reference appendix: `{website, ready?, verified?, readyToSend?}`).
 */
export const websitesRoutes = routeModule(
  {
    createSendingDomain: CreateSendingDomain,
    listSendingDomains: ListSendingDomains,
    getSendingDomain: GetSendingDomain,
    verifySendingDomain: VerifySendingDomain,
    deleteSendingDomain: DeleteSendingDomain,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/websites",
      tag: "Sending domains",
      scopes: ["account:read"],
      summary: `The company's sending domains as websites, alphabetical. ${SHAPE}`,
      response: view({ websites: t.readonlyArray(WebsiteView) }),
      handle: async ({ actor }) =>
        map((domains: SendingDomainView[]) => ({ websites: domains.map(toWebsiteView) }))(await uses.listSendingDomains.execute(actor)),
    }),
    defineRoute({
      method: "post",
      path: "/websites",
      tag: "Sending domains",
      scopes: ["senders:write"],
      summary: `Add a sending domain (status pending) and get the DNS records to publish before verifying it. ${SHAPE} 409 'Sending domain already exists'`,
      body: CreateSendingDomainCommand,
      response: view({ website: WebsiteView }),
      errors: [409, 422],
      handle: async ({ input, actor }) =>
        map((domain: SendingDomainView) => ({ website: toWebsiteView(domain) }))(await uses.createSendingDomain.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/websites/:domain",
      tag: "Sending domains",
      scopes: ["account:read"],
      summary: `One sending domain as of its last check (POST .../verify runs a fresh one); ready is readyToSend, status the domain's status. ${NOT_FOUND}`,
      params: WebsitePath,
      response: view({ website: WebsiteView, ready: t.boolean, status: t.string }),
      errors: [404],
      handle: async ({ input, actor }) =>
        map((domain: SendingDomainView) => {
          const website = toWebsiteView(domain);
          return { website, ready: website.readyToSend, status: website.status };
        })(await uses.getSendingDomain.execute(actor, input.params.domain)),
    }),
    defineRoute({
      method: "post",
      path: "/websites/:domain/verify",
      tag: "Sending domains",
      scopes: ["senders:write"],
      summary:
        "Look the four records up in DNS now (as POST /sending-domains/{id}/verify). verified: every record was found as published; readyToSend: the domain can send; " +
        `message sums it up. ${NOT_FOUND}`,
      params: WebsitePath,
      response: view({ website: WebsiteView, verified: t.boolean, readyToSend: t.boolean, message: t.string }),
      errors: [404],
      handle: async ({ input, actor }) =>
        map((domain: SendingDomainView) => {
          const website = toWebsiteView(domain);
          return { website, verified: website.dnsVerified, readyToSend: website.readyToSend, message: verificationMessage(website) };
        })(await uses.verifySendingDomain.execute(actor, input.params.domain)),
    }),
    defineRoute({
      method: "delete",
      path: "/websites/:domain",
      tag: "Sending domains",
      scopes: ["senders:write"],
      summary: `Delete a sending domain and its key. Its sender profiles stay, with domain null and canSend false. ${NOT_FOUND}`,
      params: WebsitePath,
      response: view({ domain: t.string, domainId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteSendingDomain.execute(actor, input.params.domain),
    }),
  ],
);

function verificationMessage(website: WebsiteView): string {
  if (website.dnsVerified) return `${website.domain} is verified: every DNS record is published as listed, and it can send.`;
  if (website.readyToSend) return `${website.domain} can send (verified by the operator), though not every DNS record is published as listed.`;
  return `${website.domain} is not verified yet. ${website.readiness.reason}`;
}

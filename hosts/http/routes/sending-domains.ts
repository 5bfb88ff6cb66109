import * as t from "io-ts";
import { CreateSendingDomainCommand, SendingDomainPath } from "../../../core/company/commands.js";
import { CreateSendingDomain } from "../../../core/company/create-sending-domain.js";
import { DeleteSendingDomain } from "../../../core/company/delete-sending-domain.js";
import { GetSendingDomain } from "../../../core/company/get-sending-domain.js";
import { ListSendingDomains } from "../../../core/company/list-sending-domains.js";
import { VerifySendingDomain } from "../../../core/company/verify-sending-domain.js";
import { SendingDomainView } from "../../../core/company/view.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const RECORDS =
  "records lists what to publish: DKIM TXT at <selector>._domainkey.<domain> (v=DKIM1; k=rsa; p=<public key>), SPF TXT on the domain with include:_spf.<host>, " +
  "DMARC TXT at _dmarc.<domain> (v=DMARC1), and a return-path CNAME bounces.<domain> -> bounces.<host>, where <host> is the host of the server's BASE_URL. " +
  "The DKIM private key (RSA-2048) is stored encrypted and never returned.";

/** A company's sending domains: From addresses must be on a verified one. */
export const sendingDomainsRoutes = routeModule(
  {
    createSendingDomain: CreateSendingDomain,
    listSendingDomains: ListSendingDomains,
    getSendingDomain: GetSendingDomain,
    verifySendingDomain: VerifySendingDomain,
    deleteSendingDomain: DeleteSendingDomain,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/sending-domains",
      tag: "Sending domains",
      scopes: ["senders:write"],
      summary: `Add a sending domain (status pending) with a fresh DKIM key pair. ${RECORDS} 409 'Sending domain already exists'`,
      body: CreateSendingDomainCommand,
      response: view({ sendingDomain: SendingDomainView }),
      errors: [409, 422],
      handle: async ({ input, actor }) => under("sendingDomain")(await uses.createSendingDomain.execute(actor, input.body)),
    }),
    defineRoute({
      method: "get",
      path: "/sending-domains",
      tag: "Sending domains",
      scopes: ["account:read"],
      summary: "The company's sending domains, alphabetical, each with its records and the outcome of the last check",
      response: view({ sendingDomains: t.readonlyArray(SendingDomainView) }),
      handle: async ({ actor }) => under("sendingDomains")(await uses.listSendingDomains.execute(actor)),
    }),
    defineRoute({
      method: "get",
      path: "/sending-domains/:domainId",
      tag: "Sending domains",
      scopes: ["account:read"],
      summary: "One sending domain with its records, named by its ID or its domain name. 404 'Sending domain not found'",
      params: SendingDomainPath,
      response: view({ sendingDomain: SendingDomainView }),
      errors: [404],
      handle: async ({ input, actor }) => under("sendingDomain")(await uses.getSendingDomain.execute(actor, input.params.domainId)),
    }),
    defineRoute({
      method: "post",
      path: "/sending-domains/:domainId/verify",
      tag: "Sending domains",
      scopes: ["senders:write"],
      summary:
        "Look the four records up in DNS. Each record gets a status (verified, missing, mismatch, unreachable) and a problem in words. The domain becomes verified when all four are right, " +
        "failed when one holds something else, and stays pending while records are only missing; a domain the operator verified stays verified. {domainId} may also be the domain name. 404 'Sending domain not found'",
      params: SendingDomainPath,
      response: view({ sendingDomain: SendingDomainView }),
      errors: [404],
      handle: async ({ input, actor }) => under("sendingDomain")(await uses.verifySendingDomain.execute(actor, input.params.domainId)),
    }),
    defineRoute({
      method: "delete",
      path: "/sending-domains/:domainId",
      tag: "Sending domains",
      scopes: ["senders:write"],
      summary:
        "Delete a sending domain (by ID or domain name) and its key. Its sender profiles stay, with domain null and canSend false. 404 'Sending domain not found'",
      params: SendingDomainPath,
      response: view({ domainId: Id }),
      errors: [404],
      handle: async ({ input, actor }) => uses.deleteSendingDomain.execute(actor, input.params.domainId),
    }),
  ],
);

import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { CreateSendingDomainCommand, SendingDomainPath } from "../../../core/company/commands.js";
import { CreateSendingDomain } from "../../../core/company/create-sending-domain.js";
import { DeleteSendingDomain } from "../../../core/company/delete-sending-domain.js";
import { GetSendingDomain } from "../../../core/company/get-sending-domain.js";
import { ListSendingDomains } from "../../../core/company/list-sending-domains.js";
import { VerifySendingDomain } from "../../../core/company/verify-sending-domain.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const DnsRecordResource = t.type({
  purpose: t.keyof({ dkim: null, spf: null, dmarc: null, return_path: null }),
  type: t.keyof({ TXT: null, CNAME: null }),
  name: t.string,
  value: t.string,
  status: t.union([t.keyof({ verified: null, missing: null, mismatch: null, unreachable: null }), t.null]),
  problem: NullableString,
  found: t.array(t.string),
});

const SendingDomainResource = t.type({
  id: Id,
  domain: t.string,
  status: t.keyof({ pending: null, verified: null, failed: null }),
  verifiedBy: t.union([t.keyof({ dns: null, operator: null }), t.null]),
  canSend: t.boolean,
  dkimSelector: t.string,
  records: t.array(DnsRecordResource),
  verifiedAt: NullableTimestamp,
  lastCheckedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const RECORDS =
  "records lists what to publish: DKIM TXT at <selector>._domainkey.<domain> (v=DKIM1; k=rsa; p=<public key>), SPF TXT on the domain with include:_spf.<host>, " +
  "DMARC TXT at _dmarc.<domain> (v=DMARC1), and a return-path CNAME bounces.<domain> -> bounces.<host>, where <host> is the host of the server's BASE_URL. " +
  "The DKIM private key (RSA-2048) is stored encrypted and never returned.";

/** A company's sending domains: From addresses must be on a verified one. */
export const sendingDomainsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/sending-domains",
    tag: "Sending domains",
    scopes: ["senders:write"],
    summary: `Add a sending domain (status pending) with a fresh DKIM key pair. ${RECORDS} 409 'Sending domain already exists'`,
    body: CreateSendingDomainCommand,
    response: t.type({ sendingDomain: SendingDomainResource }),
    errors: [409, 422],
    handle: async ({ input, actor, container }) => map((sendingDomain) => ({ sendingDomain }))(await container.get(CreateSendingDomain).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/sending-domains",
    tag: "Sending domains",
    scopes: ["account:read"],
    summary: "The company's sending domains, alphabetical, each with its records and the outcome of the last check",
    response: t.type({ sendingDomains: t.array(SendingDomainResource) }),
    handle: async ({ actor, container }) => map((sendingDomains) => ({ sendingDomains }))(await container.get(ListSendingDomains).execute(actor)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/sending-domains/:domainId",
    tag: "Sending domains",
    scopes: ["account:read"],
    summary: "One sending domain with its records. 404 'Sending domain not found'",
    params: SendingDomainPath,
    response: t.type({ sendingDomain: SendingDomainResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((sendingDomain) => ({ sendingDomain }))(await container.get(GetSendingDomain).execute(actor, input.params.domainId)),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/sending-domains/:domainId/verify",
    tag: "Sending domains",
    scopes: ["senders:write"],
    summary:
      "Look the four records up in DNS. Each record gets a status (verified, missing, mismatch, unreachable) and a problem in words. The domain becomes verified when all four are right, " +
      "failed when one holds something else, and stays pending while records are only missing; a domain the operator verified stays verified. 404 'Sending domain not found'",
    params: SendingDomainPath,
    response: t.type({ sendingDomain: SendingDomainResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((sendingDomain) => ({ sendingDomain }))(await container.get(VerifySendingDomain).execute(actor, input.params.domainId)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/sending-domains/:domainId",
    tag: "Sending domains",
    scopes: ["senders:write"],
    summary: "Delete a sending domain and its key. Its sender profiles stay, with domain null and canSend false. 404 'Sending domain not found'",
    params: SendingDomainPath,
    response: t.type({ domainId: Id }),
    errors: [404],
    handle: async ({ input, actor, container }) => container.get(DeleteSendingDomain).execute(actor, input.params.domainId),
  }),
];

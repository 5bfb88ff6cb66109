import * as t from "io-ts";
import type { DiscoveredResource } from "../../core/migrations/model.js";
import {
  SourceError,
  type ContentFilter,
  type MigrationSource,
  type SourceCampaign,
  type SourcePage,
  type SourceTemplate,
} from "../../core/migrations/ports.js";
import { HttpRequestError, type HttpClient } from "../../core/ports/http-client.js";
import { reportErrors } from "../../core/shared/codecs.js";
import type { SubscriberStatus } from "../../core/subscribers/model.js";
import { normalizeTagName } from "../../core/tags/model.js";

/**
 * Mailchimp Marketing API v3 as a migration source. The API key ends in its data center
 * (`...-us21`), which names the API's host (`https://us21.api.mailchimp.com/3.0`); requests use
 * HTTP basic auth with the key as password. Discovery lists every audience (GET /lists) with its
 * contact count, the campaigns (GET /campaigns) and the saved templates (GET /templates?type=user);
 * readers page with count/offset.
 */

const AUDIENCE_PREFIX = "audience:";
export const CAMPAIGNS_RESOURCE_ID = "campaigns";
export const TEMPLATES_RESOURCE_ID = "templates";
/** Lists per discovery page (the API's maximum). */
const LIST_PAGE = 1000;
const TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 20 * 1024 * 1024;
/** Data centers look like `us21`: anything else is not a key (and must not name a host). */
const API_KEY = /^[A-Za-z0-9]+-([a-z]{2}\d{1,3})$/;

/** Contact states: subscribed, unsubscribed and cleaned contacts are imported; pending, transactional and archived ones are not. */
const STATUSES: Readonly<Record<string, SubscriberStatus>> = { subscribed: "active", unsubscribed: "unsubscribed", cleaned: "bounced" };

const Lists = t.type({
  lists: t.array(
    t.type({
      id: t.string,
      name: t.string,
      stats: t.partial({ member_count: t.number, unsubscribe_count: t.number, cleaned_count: t.number }),
    }),
  ),
  total_items: t.number,
});
const Total = t.type({ total_items: t.number });
const Members = t.type({
  members: t.array(
    t.intersection([
      t.type({ email_address: t.string, status: t.string }),
      t.partial({
        merge_fields: t.record(t.string, t.unknown),
        tags: t.array(t.type({ name: t.string })),
        timestamp_signup: t.string,
        timestamp_opt: t.string,
      }),
    ]),
  ),
  total_items: t.number,
});
const Campaigns = t.type({
  campaigns: t.array(
    t.intersection([t.type({ id: t.string }), t.partial({ settings: t.partial({ subject_line: t.string, preview_text: t.string, title: t.string }) })]),
  ),
  total_items: t.number,
});
const CampaignContent = t.partial({ html: t.string });
const Templates = t.type({ templates: t.array(t.type({ id: t.number, name: t.string })), total_items: t.number });
const DefaultContent = t.partial({ sections: t.record(t.string, t.unknown) });

const ProblemDetail = t.partial({ title: t.string, detail: t.string });

const text = (value: unknown): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);
const isEmpty = (value: unknown): boolean =>
  value === null ||
  value === undefined ||
  (typeof value === "string" && value.trim() === "") ||
  (typeof value === "object" && !Array.isArray(value) && Object.values(value).every(isEmpty));

/** A member as a subscriber import row; null when its state is not one we import. */
function memberRow(member: t.TypeOf<typeof Members>["members"][number]): Record<string, unknown> | null {
  const status = STATUSES[member.status];
  if (!status) return null;
  const row: Record<string, unknown> = { email: member.email_address, status };
  const attributes: Record<string, unknown> = {};
  for (const [tag, value] of Object.entries(member.merge_fields ?? {})) {
    if (tag === "FNAME") row.firstName = text(value)?.slice(0, 255);
    else if (tag === "LNAME") row.lastName = text(value)?.slice(0, 255);
    else if (!isEmpty(value)) attributes[tag.toLowerCase()] = value;
  }
  if (Object.keys(attributes).length > 0) row.customAttributes = attributes;
  const tags = (member.tags ?? []).map((tag) => tag.name).filter((name) => normalizeTagName(name) !== "");
  if (tags.length > 0) row.tags = tags;
  const joined = text(member.timestamp_signup) ?? text(member.timestamp_opt);
  if (joined && !Number.isNaN(new Date(joined).getTime())) row.createdAt = joined;
  return row;
}

/** A template's editable sections one after the other: the API gives those, not the layout around them. */
function sectionsHtml(sections: Readonly<Record<string, unknown>>): string {
  return Object.entries(sections)
    .filter(([, value]) => typeof value === "string" && value.trim() !== "")
    .map(([name, value]) => `<div data-mc-edit="${name.replace(/[^\w-]/g, "")}">${String(value)}</div>`)
    .join("\n");
}

export class MailchimpMigrationSource implements MigrationSource {
  private readonly base: string;
  private readonly authorization: string;

  /** Throws SourceError("credentials") for a key without a data center. */
  constructor(
    private readonly http: HttpClient,
    apiKey: string,
    baseUrl: string | null,
  ) {
    const dataCenter = API_KEY.exec(apiKey.trim())?.[1];
    if (!dataCenter)
      throw new SourceError("credentials", "The Mailchimp API key must end with its data center, such as -us21 (Mailchimp: Profile > Extras > API keys)");
    this.base = baseUrl ?? `https://${dataCenter}.api.mailchimp.com/3.0`;
    this.authorization = `Basic ${Buffer.from(`lifecycle:${apiKey.trim()}`).toString("base64")}`;
  }

  async discover(): Promise<DiscoveredResource[]> {
    const resources: DiscoveredResource[] = [];
    for (let offset = 0; ; offset += LIST_PAGE) {
      const page = await this.get("/lists", { count: String(LIST_PAGE), offset: String(offset) }, Lists);
      for (const list of page.lists) {
        const { member_count = 0, unsubscribe_count = 0, cleaned_count = 0 } = list.stats;
        resources.push({ id: `${AUDIENCE_PREFIX}${list.id}`, type: "audience", count: member_count + unsubscribe_count + cleaned_count, name: list.name });
      }
      if (page.lists.length < LIST_PAGE || offset + LIST_PAGE >= page.total_items) break;
    }
    const campaigns = await this.get("/campaigns", { count: "1", offset: "0" }, Total);
    resources.push({ id: CAMPAIGNS_RESOURCE_ID, type: "campaign", count: campaigns.total_items, name: "Campaigns" });
    const templates = await this.get("/templates", { type: "user", count: "1", offset: "0" }, Total);
    resources.push({ id: TEMPLATES_RESOURCE_ID, type: "template", count: templates.total_items, name: "Saved templates" });
    return resources;
  }

  async readContacts(resource: DiscoveredResource, offset: number, limit: number): Promise<SourcePage<Record<string, unknown>>> {
    const listId = resource.id.slice(AUDIENCE_PREFIX.length);
    const page = await this.get(`/lists/${encodeURIComponent(listId)}/members`, { count: String(limit), offset: String(offset) }, Members);
    const items = page.members.map(memberRow).filter((row): row is Record<string, unknown> => row !== null);
    return { items, read: page.members.length, done: page.members.length < limit || offset + page.members.length >= page.total_items };
  }

  async readCampaigns(_resource: DiscoveredResource, offset: number, limit: number, filter: ContentFilter): Promise<SourcePage<SourceCampaign>> {
    const query: Record<string, string> = { count: String(limit), offset: String(offset), sort_field: "create_time", sort_dir: "ASC" };
    if (filter.createdSince) query.since_create_time = filter.createdSince;
    const page = await this.get("/campaigns", query, Campaigns);
    const items: SourceCampaign[] = [];
    for (const campaign of page.campaigns) {
      // Plain-text campaigns and ones never designed have no HTML: the draft keeps the rest.
      const content = await this.find(`/campaigns/${encodeURIComponent(campaign.id)}/content`, CampaignContent);
      const settings = campaign.settings ?? {};
      items.push({
        externalId: campaign.id,
        name: text(settings.title) ?? text(settings.subject_line) ?? "",
        subject: text(settings.subject_line) ?? null,
        previewText: text(settings.preview_text) ?? null,
        html: text(content?.html) ?? null,
      });
    }
    return { items, read: page.campaigns.length, done: page.campaigns.length < limit || offset + page.campaigns.length >= page.total_items };
  }

  async readTemplates(_resource: DiscoveredResource, offset: number, limit: number, filter: ContentFilter): Promise<SourcePage<SourceTemplate>> {
    const query: Record<string, string> = { type: "user", count: String(limit), offset: String(offset), sort_field: "date_created", sort_dir: "ASC" };
    if (filter.createdSince) query.since_date_created = filter.createdSince;
    const page = await this.get("/templates", query, Templates);
    const items: SourceTemplate[] = [];
    for (const template of page.templates) {
      const content = await this.find(`/templates/${template.id}/default-content`, DefaultContent);
      items.push({ externalId: String(template.id), name: template.name, html: content?.sections ? sectionsHtml(content.sections) || null : null });
    }
    return { items, read: page.templates.length, done: page.templates.length < limit || offset + page.templates.length >= page.total_items };
  }

  /** A resource that must exist. */
  private async get<A>(path: string, query: Record<string, string>, codec: t.Decoder<unknown, A>): Promise<A> {
    const found = await this.request(path, query, codec);
    if (found === null) throw new SourceError("unavailable", `Mailchimp answered 404 for ${path}`);
    return found;
  }

  /** A resource that may be missing (null on 404). */
  private find<A>(path: string, codec: t.Decoder<unknown, A>): Promise<A | null> {
    return this.request(path, {}, codec);
  }

  private async request<A>(path: string, query: Record<string, string>, codec: t.Decoder<unknown, A>): Promise<A | null> {
    const search = new URLSearchParams(query).toString();
    let response;
    try {
      response = await this.http.send({
        method: "GET",
        url: `${this.base}${path}${search ? `?${search}` : ""}`,
        headers: { authorization: this.authorization, accept: "application/json" },
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
    } catch (error) {
      if (error instanceof HttpRequestError) throw new SourceError("unavailable", `Mailchimp could not be reached: ${error.message}`);
      throw error;
    }
    const { status } = response;
    if (status === 401 || status === 403) {
      throw new SourceError("credentials", `Mailchimp refused the API key (HTTP ${status}${describeProblem(response.body)})`);
    }
    if (status === 404) return null;
    if (status < 200 || status >= 300) throw new SourceError("unavailable", `Mailchimp answered HTTP ${status} for ${path}${describeProblem(response.body)}`);
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      throw new SourceError("unavailable", `Mailchimp answered ${path} with something that is not JSON`);
    }
    const decoded = codec.decode(body);
    if (decoded._tag === "Left") {
      const problem = reportErrors(decoded.left)[0];
      throw new SourceError("unavailable", `Mailchimp answered ${path} in an unexpected shape${problem ? ` (${problem.path} ${problem.message})` : ""}`);
    }
    return decoded.right;
  }
}

/** ": title - detail" of a Mailchimp error body (RFC 7807 problem details), when it has one. */
function describeProblem(body: string): string {
  try {
    const problem = ProblemDetail.decode(JSON.parse(body));
    if (problem._tag === "Left") return "";
    const parts = [problem.right.title, problem.right.detail].filter((part): part is string => Boolean(part?.trim()));
    return parts.length > 0 ? `: ${parts.join(" - ").slice(0, 300)}` : "";
  } catch {
    return "";
  }
}

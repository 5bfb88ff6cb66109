import { createHash } from "node:crypto";
import nock from "nock";

/**
 * Mailchimp Marketing API v3 responses, shaped as its API reference documents them (lists,
 * list members with merge fields and tags, campaigns with settings, campaign content, templates,
 * template default content, problem-detail errors), served by nock for one data center.
 */

export interface MailchimpMember {
  readonly email: string;
  readonly status: "subscribed" | "unsubscribed" | "cleaned" | "pending" | "transactional" | "archived";
  readonly firstName?: string;
  readonly lastName?: string;
  readonly mergeFields?: Readonly<Record<string, unknown>>;
  readonly tags?: readonly string[];
  readonly signedUpAt?: string;
}

export interface MailchimpAudience {
  readonly id: string;
  readonly name: string;
  readonly members: readonly MailchimpMember[];
}

export interface MailchimpCampaign {
  readonly id: string;
  readonly title: string;
  readonly subject: string;
  readonly previewText: string;
  readonly type?: "regular" | "plaintext";
  readonly html: string;
  readonly createdAt: string;
}

export interface MailchimpTemplate {
  readonly id: number;
  readonly name: string;
  readonly sections: Readonly<Record<string, string>>;
}

export interface MailchimpAccount {
  readonly dataCenter: string;
  readonly apiKey: string;
  readonly audiences: readonly MailchimpAudience[];
  readonly campaigns: readonly MailchimpCampaign[];
  readonly templates: readonly MailchimpTemplate[];
}

const links = (href: string) => [
  { rel: "self", href, method: "GET", targetSchema: "https://us1.api.mailchimp.com/schema/3.0/Definitions/Lists/Response.json" },
];

const md5 = (text: string) => createHash("md5").update(text.toLowerCase()).digest("hex");

export function listResource(dc: string, audience: MailchimpAudience) {
  const count = (status: MailchimpMember["status"]) => audience.members.filter((member) => member.status === status).length;
  return {
    id: audience.id,
    web_id: 200_001,
    name: audience.name,
    contact: { company: "Acme Outdoor", address1: "1 Main St", address2: "", city: "Portland", state: "OR", zip: "97201", country: "US", phone: "" },
    permission_reminder: "You signed up for updates on our website.",
    use_archive_bar: true,
    campaign_defaults: { from_name: "Acme Outdoor", from_email: "news@acme.example", subject: "", language: "en" },
    notify_on_subscribe: "",
    notify_on_unsubscribe: "",
    date_created: "2023-02-14T09:30:00+00:00",
    list_rating: 3,
    email_type_option: false,
    subscribe_url_short: "http://eepurl.com/iAbCdE",
    subscribe_url_long: `https://acme.${dc}.list-manage.com/subscribe?u=2a1b3c4d5e6f7a8b9c0d1e2f3&id=${audience.id}`,
    beamer_address: `${dc}-a1b2c3d4e5-f6a7b8c9d0@inbound.mailchimp.com`,
    visibility: "pub",
    double_optin: false,
    has_welcome: false,
    marketing_permissions: false,
    modules: [],
    stats: {
      member_count: count("subscribed"),
      unsubscribe_count: count("unsubscribed"),
      cleaned_count: count("cleaned"),
      member_count_since_send: 3,
      unsubscribe_count_since_send: 0,
      cleaned_count_since_send: 0,
      campaign_count: 12,
      campaign_last_sent: "2026-10-01T15:00:00+00:00",
      merge_field_count: 5,
      avg_sub_rate: 4,
      avg_unsub_rate: 0,
      target_sub_rate: 3,
      open_rate: 41.2,
      click_rate: 6.3,
      last_sub_date: "2026-11-20T08:12:44+00:00",
      last_unsub_date: "2026-11-02T17:03:10+00:00",
    },
    _links: links(`https://${dc}.api.mailchimp.com/3.0/lists/${audience.id}`),
  };
}

export function memberResource(dc: string, listId: string, member: MailchimpMember, index: number) {
  const tags = (member.tags ?? []).map((name, i) => ({ id: 9000 + i, name }));
  return {
    id: md5(member.email),
    email_address: member.email,
    unique_email_id: md5(`${member.email}-unique`).slice(0, 10),
    contact_id: md5(`${member.email}-contact`),
    full_name: [member.firstName, member.lastName].filter(Boolean).join(" "),
    web_id: 500_000 + index,
    email_type: "html",
    status: member.status,
    consents_to_one_to_one_messaging: true,
    merge_fields: { FNAME: member.firstName ?? "", LNAME: member.lastName ?? "", ADDRESS: "", PHONE: "", BIRTHDAY: "", ...member.mergeFields },
    interests: { "9143cf3bd1": false },
    stats: { avg_open_rate: 0.5, avg_click_rate: 0.1 },
    ip_signup: "",
    timestamp_signup: member.signedUpAt ?? "",
    ip_opt: "203.0.113.24",
    timestamp_opt: "2024-05-02T08:15:00+00:00",
    member_rating: 2,
    last_changed: "2026-09-12T10:00:00+00:00",
    language: "en",
    vip: false,
    email_client: "Gmail",
    location: { latitude: 0, longitude: 0, gmtoff: 0, dstoff: 0, country_code: "", timezone: "", region: "" },
    marketing_permissions: [],
    last_note: { note_id: 0, created_at: "", created_by: "", note: "" },
    source: "Hosted Signup Form",
    tags_count: tags.length,
    tags,
    list_id: listId,
    _links: links(`https://${dc}.api.mailchimp.com/3.0/lists/${listId}/members/${md5(member.email)}`),
  };
}

export function campaignResource(dc: string, campaign: MailchimpCampaign, index: number) {
  return {
    id: campaign.id,
    web_id: 880_000 + index,
    type: campaign.type ?? "regular",
    create_time: campaign.createdAt,
    archive_url: `http://eepurl.com/c${index}`,
    long_archive_url: `https://us21.campaign-archive.com/?u=2a1b3c4d5e6f7a8b9c0d1e2f3&id=${campaign.id}`,
    status: "sent",
    emails_sent: 1520,
    send_time: campaign.createdAt,
    content_type: "template",
    needs_block_refresh: false,
    resendable: false,
    recipients: { list_id: "a1b2c3d4e5", list_is_active: true, list_name: "Newsletter", segment_text: "", recipient_count: 1520 },
    settings: {
      subject_line: campaign.subject,
      preview_text: campaign.previewText,
      title: campaign.title,
      from_name: "Acme Outdoor",
      reply_to: "news@acme.example",
      use_conversation: false,
      to_name: "*|FNAME|*",
      folder_id: "",
      authenticate: true,
      auto_footer: false,
      inline_css: false,
      auto_tweet: false,
      fb_comments: true,
      timewarp: false,
      template_id: 10_001,
      drag_and_drop: true,
    },
    tracking: { opens: true, html_clicks: true, text_clicks: false, goal_tracking: false, ecomm360: false, google_analytics: "", clicktale: "" },
    report_summary: { opens: 640, unique_opens: 602, open_rate: 0.396, clicks: 96, subscriber_clicks: 88, click_rate: 0.058 },
    delivery_status: { enabled: false },
    _links: links(`https://${dc}.api.mailchimp.com/3.0/campaigns/${campaign.id}`),
  };
}

export function templateResource(dc: string, template: MailchimpTemplate) {
  return {
    id: template.id,
    type: "user",
    name: template.name,
    drag_and_drop: false,
    responsive: true,
    category: "",
    date_created: "2024-01-10T12:00:00+00:00",
    date_edited: "2025-06-01T12:00:00+00:00",
    created_by: "Ada Admin",
    edited_by: "Ada Admin",
    active: true,
    folder_id: "",
    thumbnail: "",
    share_url: `https://${dc}.admin.mailchimp.com/templates/share?id=${template.id}`,
    content_type: "html",
    _links: links(`https://${dc}.api.mailchimp.com/3.0/templates/${template.id}`),
  };
}

/** The problem-detail body Mailchimp answers errors with. */
export const problem = (status: number, title: string, detail: string) => ({
  type: "https://mailchimp.com/developer/marketing/docs/errors/",
  title,
  status,
  detail,
  instance: "5f4d3c2b-1a09-4e8d-9c7b-6a5f4e3d2c1b",
});

export const API_KEY_INVALID = problem(401, "API Key Invalid", "Your API key may be invalid, or you've attempted to access the wrong datacenter.");

/** The host of a data center's API. */
export const hostOf = (dataCenter: string) => `https://${dataCenter}.api.mailchimp.com`;

/** Intercepts, with the key's basic auth, the calls made by discovery: lists, campaign and template totals. */
export function interceptDiscovery(account: MailchimpAccount, origin = hostOf(account.dataCenter), prefix = "/3.0"): nock.Scope {
  const dc = account.dataCenter;
  return nock(origin)
    .get(`${prefix}/lists`)
    .basicAuth({ user: "lifecycle", pass: account.apiKey })
    .query({ count: "1000", offset: "0" })
    .reply(200, {
      lists: account.audiences.map((audience) => listResource(dc, audience)),
      total_items: account.audiences.length,
      constraints: { may_create: true, max_instances: 100, current_total_instances: account.audiences.length },
      _links: links(`${origin}${prefix}/lists`),
    })
    .get(`${prefix}/campaigns`)
    .basicAuth({ user: "lifecycle", pass: account.apiKey })
    .query({ count: "1", offset: "0" })
    .reply(200, {
      campaigns: account.campaigns.slice(0, 1).map((campaign, i) => campaignResource(dc, campaign, i)),
      total_items: account.campaigns.length,
      _links: links(`${origin}${prefix}/campaigns`),
    })
    .get(`${prefix}/templates`)
    .basicAuth({ user: "lifecycle", pass: account.apiKey })
    .query({ type: "user", count: "1", offset: "0" })
    .reply(200, {
      templates: account.templates.slice(0, 1).map((template) => templateResource(dc, template)),
      total_items: account.templates.length,
      _links: links(`${origin}${prefix}/templates`),
    });
}

/** Intercepts the member pages of an audience, `pageSize` at a time. */
export function interceptMembers(account: MailchimpAccount, audience: MailchimpAudience, pageSize: number): nock.Scope {
  const dc = account.dataCenter;
  const scope = nock(hostOf(dc));
  for (let offset = 0; offset === 0 || offset < audience.members.length; offset += pageSize) {
    const members = audience.members.slice(offset, offset + pageSize).map((member, i) => memberResource(dc, audience.id, member, offset + i));
    scope
      .get(`/3.0/lists/${audience.id}/members`)
      .basicAuth({ user: "lifecycle", pass: account.apiKey })
      .query({ count: String(pageSize), offset: String(offset) })
      .reply(200, { members, list_id: audience.id, total_items: audience.members.length, _links: links(`${hostOf(dc)}/3.0/lists/${audience.id}/members`) });
  }
  return scope;
}

/** Intercepts the campaign pages (oldest first) and each campaign's content. */
export function interceptCampaigns(account: MailchimpAccount, pageSize: number): nock.Scope {
  const dc = account.dataCenter;
  const scope = nock(hostOf(dc));
  for (let offset = 0; offset === 0 || offset < account.campaigns.length; offset += pageSize) {
    const page = account.campaigns.slice(offset, offset + pageSize);
    scope
      .get("/3.0/campaigns")
      .basicAuth({ user: "lifecycle", pass: account.apiKey })
      .query({ count: String(pageSize), offset: String(offset), sort_field: "create_time", sort_dir: "ASC" })
      .reply(200, {
        campaigns: page.map((campaign, i) => campaignResource(dc, campaign, offset + i)),
        total_items: account.campaigns.length,
        _links: links(`${hostOf(dc)}/3.0/campaigns`),
      });
    for (const campaign of page) {
      scope
        .get(`/3.0/campaigns/${campaign.id}/content`)
        .basicAuth({ user: "lifecycle", pass: account.apiKey })
        .reply(200, {
          plain_text: `${campaign.subject}\n\nView this email in your browser (*|ARCHIVE|*)`,
          html: campaign.html,
          archive_html: campaign.html,
          _links: links(`${hostOf(dc)}/3.0/campaigns/${campaign.id}/content`),
        });
    }
  }
  return scope;
}

/** Intercepts the saved-template pages and each template's default content. */
export function interceptTemplates(account: MailchimpAccount, pageSize: number): nock.Scope {
  const dc = account.dataCenter;
  const scope = nock(hostOf(dc))
    .get("/3.0/templates")
    .basicAuth({ user: "lifecycle", pass: account.apiKey })
    .query({ type: "user", count: String(pageSize), offset: "0", sort_field: "date_created", sort_dir: "ASC" })
    .reply(200, {
      templates: account.templates.map((template) => templateResource(dc, template)),
      total_items: account.templates.length,
      _links: links(`${hostOf(dc)}/3.0/templates`),
    });
  for (const template of account.templates) {
    scope
      .get(`/3.0/templates/${template.id}/default-content`)
      .basicAuth({ user: "lifecycle", pass: account.apiKey })
      .reply(200, { sections: template.sections, _links: links(`${hostOf(dc)}/3.0/templates/${template.id}/default-content`) });
  }
  return scope;
}

/**
 * The complete scope catalog: every permission an API key can hold, as `resource:action`.
 * It is data: the OpenAPI document, the key presets and the role ceilings all read it.
 */
export interface ScopeDefinition {
  readonly scope: string;
  readonly description: string;
}

const catalog = [
  ["account:read", "Read the account, its companies, sender and reply profiles"],
  ["companies:manage", "Create and delete companies (workspaces)"],
  ["company_profile:manage", "Update the company profile, brand and email theme"],
  ["api_keys:read", "List API keys (metadata only)"],
  ["api_keys:manage", "Create, update and revoke API keys"],
  ["team:read", "List team members and invitations"],
  ["team:manage", "Invite, change and remove team members"],
  ["subscribers:read", "Read subscribers, their notes, tags and list memberships"],
  ["subscribers:write", "Create and update subscribers and their notes"],
  ["subscribers:delete", "Delete subscribers"],
  ["subscribers:tag", "Add and remove tags on subscribers"],
  ["subscribers:import", "Import subscribers in bulk"],
  ["tags:read", "List tags and their colors"],
  ["tags:write", "Create, update and delete tags"],
  ["lists:read", "List lists and their members"],
  ["lists:write", "Create, update and delete lists and their memberships"],
  ["segments:read", "Read segments and their counts"],
  ["segments:write", "Create and update segments"],
  ["segments:delete", "Delete segments"],
  ["events:read", "Read custom events and event definitions"],
  ["events:write", "Record custom events"],
  ["automations:trigger", "Trigger automations with events and enrollments"],
  ["sequences:read", "Read sequences and their enrollments"],
  ["sequences:write", "Create, update, enable and disable sequences"],
  ["sequences:enroll", "Enroll and remove contacts in sequences"],
  ["campaigns:read", "Read campaigns"],
  ["campaigns:write", "Create and update campaigns"],
  ["campaigns:send", "Schedule and send campaigns and test emails"],
  ["templates:read", "Read templates"],
  ["templates:write", "Create, update and delete templates"],
  ["emails:read", "Read email content and reusable email components"],
  ["emails:write", "Edit email content and reusable email components"],
  ["transactional:read", "Read saved transactional emails"],
  ["transactional:write", "Create and update saved transactional emails"],
  ["transactional:send", "Send transactional emails"],
  ["transactional:delete", "Delete saved transactional emails"],
  ["email_sends:read", "Search individual email sends and their events"],
  ["suppressions:read", "Read the suppression list"],
  ["suppressions:write", "Add and remove suppressions"],
  ["senders:write", "Manage sender and reply profiles and sending domains"],
  ["ab_tests:read", "Read A/B tests"],
  ["ab_tests:write", "Create and update A/B tests"],
  ["analytics:read", "Read metrics and statistics"],
  ["integrations:read", "List integrations and web tracking keys"],
  ["integrations:manage", "Connect integrations and manage web tracking keys"],
  ["widgets:read", "Read forms, popups and landing pages"],
  ["widgets:write", "Create and update forms, popups and landing pages"],
  ["webhooks:read", "List outbound webhooks"],
  ["webhooks:write", "Create, test and delete outbound webhooks"],
  ["tracking:read", "Read tracking settings"],
  ["tracking:write", "Update tracking settings"],
  ["accounts:read", "Read accounts (organizations) and their members"],
  ["accounts:write", "Create accounts, manage members and record account events"],
  ["data_exports:read", "Read data exports and their runs"],
  ["data_exports:write", "Create, change and run data exports"],
  ["warehouse:read", "Read warehouse connections and syncs"],
  ["warehouse:write", "Create, change and run warehouse syncs"],
  ["migrations:read", "Read migration runs"],
  ["migrations:write", "Start and cancel migrations from another provider"],
  ["conversations:read", "Read the reply inbox"],
  ["conversations:write", "Reply to and close conversations"],
  ["media:write", "Upload images and files"],
  ["ai:generate", "Draft emails and subject lines with AI"],
] as const satisfies ReadonlyArray<readonly [string, string]>;

export type Scope = (typeof catalog)[number][0];

export const SCOPE_CATALOG: readonly ScopeDefinition[] = catalog.map(([scope, description]) => ({ scope, description }));

export const ALL_SCOPES: readonly Scope[] = catalog.map(([scope]) => scope);

const known: ReadonlySet<string> = new Set(ALL_SCOPES);
export const isScope = (value: string): value is Scope => known.has(value);

/** Scopes that only read. */
export const READ_SCOPES: readonly Scope[] = ALL_SCOPES.filter((scope) => scope.endsWith(":read"));

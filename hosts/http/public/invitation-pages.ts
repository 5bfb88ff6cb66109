import type { AcceptedInvitation, InvitationPreview } from "../../../core/team/accept-invitation.js";
import { engine, parse } from "./tracking-pages.js";

const ask = parse(`<h1>Join {{ companyName }}</h1>
<p>You are invited to join the {{ companyName }} team as <strong>{{ role }}</strong>, with the address <strong>{{ email }}</strong>.</p>
<form method="post">
<p><label>Your name (optional)<br><input type="text" name="name" maxlength="200" autocomplete="name"></label></p>
<button type="submit">Accept invitation</button>
</form>
<p>This invitation expires on {{ expiresOn }}.</p>`);

const closed = parse(`<h1>{{ heading }}</h1>
<p>{{ message }}</p>`);

const accepted = parse(`<h1>Welcome to {{ companyName }}</h1>
<p>You are now a member of the {{ companyName }} team as <strong>{{ role }}</strong>.</p>
<p>Your API key, shown this once only: copy it now and keep it secret.</p>
<p><code style="word-break:break-all">{{ key }}</code></p>
<p>Send it as <code>Authorization: Bearer &lt;key&gt;</code> to the API, or give it to your MCP client.</p>`);

const notFound = parse(`<h1>Invitation not found</h1>
<p>This invitation link is not valid. Check that it was copied completely from the email.</p>`);

/** The link's page: the invitation and a button that posts back to the same URL (mail scanners fetch links, they do not press buttons). */
export const invitationPage = (page: InvitationPreview): string =>
  page.status === "pending"
    ? (engine.renderSync(ask, { title: `Join ${page.companyName}`, ...page, expiresOn: page.expiresAt.toUTCString() }) as string)
    : invitationClosedPage(`This invitation is ${page.status}`, "Ask a team owner or admin for a new invitation.");

export const invitationClosedPage = (heading: string, message: string): string => engine.renderSync(closed, { title: heading, heading, message }) as string;

export const invitationAcceptedPage = (done: AcceptedInvitation): string =>
  engine.renderSync(accepted, {
    title: `Welcome to ${done.company.name}`,
    companyName: done.company.name,
    role: done.member.role,
    key: done.apiKey.key,
  }) as string;

export const invitationNotFoundPage = (): string => engine.renderSync(notFound, { title: "Invitation not found" }) as string;

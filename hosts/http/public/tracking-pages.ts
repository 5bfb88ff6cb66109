import { Liquid, type Template } from "liquidjs";

/** Every value is HTML-escaped on output: company names and addresses are not markup. */
export const engine = new Liquid({ outputEscape: "escape", strictVariables: true });

const layout = (body: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{{ title }}</title>
<style>
  body { margin: 0; font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; background: #f4f4f5; color: #18181b; }
  main { max-width: 28rem; margin: 10vh auto; padding: 2rem; background: #fff; border: 1px solid #e4e4e7; border-radius: 8px; }
  h1 { font-size: 1.25rem; margin: 0 0 1rem; }
  p { line-height: 1.5; }
  button { font: inherit; padding: 0.6rem 1.2rem; border: 0; border-radius: 6px; background: #18181b; color: #fff; cursor: pointer; }
</style>
</head>
<body><main>
${body}
</main></body>
</html>
`;

/** A page in the shared layout (title, small card, no indexing). */
export const parse = (body: string): Template[] => engine.parse(layout(body));

const confirm = parse(`<h1>Unsubscribe from {{ companyName }}</h1>
<p>Stop all email from {{ companyName }} to <strong>{{ email }}</strong>?</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>
{% if sequenceName %}<p>Or stop only the emails of <strong>{{ sequenceName }}</strong>, and keep getting the others.</p>
<form method="post" action="{{ leaveAction }}">
<button type="submit">Stop only these emails</button>
</form>{% endif %}`);

const leftSequence = parse(`<h1>You will get no more of these emails</h1>
<p><strong>{{ email }}</strong> will no longer receive the emails of {{ sequenceName }} from {{ companyName }}.</p>`);

const done = parse(`<h1>You are unsubscribed</h1>
<p><strong>{{ email }}</strong> will no longer receive email from {{ companyName }}.</p>`);

const notFound = parse(`<h1>Link not found</h1>
<p>This link is not valid. Check that it was copied completely from the email.</p>`);

const failed = parse(`<h1>Something went wrong</h1>
<p>Please try again in a moment.</p>`);

export interface RecipientPage {
  readonly companyName: string;
  readonly email: string;
}

/**
 * The form posts back to the page's own URL, as a mail client's one-click request does. With a
 * sequence its contact may stop alone (`userCancellable`), a second form posts to `{token}/sequence`.
 */
export const unsubscribeConfirmPage = (page: RecipientPage, leave: { readonly token: string; readonly sequenceName: string } | null = null): string =>
  engine.renderSync(confirm, {
    title: `Unsubscribe from ${page.companyName}`,
    ...page,
    sequenceName: leave?.sequenceName ?? null,
    leaveAction: leave ? `${leave.token}/sequence` : null,
  }) as string;

export const leftSequencePage = (page: RecipientPage & { readonly sequenceName: string }): string =>
  engine.renderSync(leftSequence, { title: "You will get no more of these emails", ...page }) as string;

export const unsubscribedPage = (page: RecipientPage): string => engine.renderSync(done, { title: "You are unsubscribed", ...page }) as string;

export const linkNotFoundPage = (): string => engine.renderSync(notFound, { title: "Link not found" }) as string;

export const errorPage = (): string => engine.renderSync(failed, { title: "Something went wrong" }) as string;

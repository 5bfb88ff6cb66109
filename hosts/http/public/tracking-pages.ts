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
</form>`);

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

/** The form posts back to the page's own URL, as a mail client's one-click request does. */
export const unsubscribeConfirmPage = (page: RecipientPage): string =>
  engine.renderSync(confirm, { title: `Unsubscribe from ${page.companyName}`, ...page }) as string;

export const unsubscribedPage = (page: RecipientPage): string => engine.renderSync(done, { title: "You are unsubscribed", ...page }) as string;

export const linkNotFoundPage = (): string => engine.renderSync(notFound, { title: "Link not found" }) as string;

export const errorPage = (): string => engine.renderSync(failed, { title: "Something went wrong" }) as string;

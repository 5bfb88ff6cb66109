import type { ConfirmationPage } from "../../../core/opt-in/confirm-subscription.js";
import { engine, parse } from "./tracking-pages.js";

const ask = parse(`<h1>Confirm your subscription</h1>
<p>Receive email from {{ companyName }} at <strong>{{ email }}</strong>?</p>
<form method="post">
<button type="submit">Confirm subscription</button>
</form>`);

const done = parse(`<h1>You are subscribed</h1>
<p>Thank you: <strong>{{ email }}</strong> will receive email from {{ companyName }}.</p>`);

const notFound = parse(`<h1>Link not valid</h1>
<p>This confirmation link is not valid or has expired. Sign up again to receive a new one.</p>`);

/** The link's page: a button that posts back to the same URL (mail scanners fetch links, they do not press buttons). */
export const confirmSubscriptionPage = (page: ConfirmationPage): string =>
  engine.renderSync(ask, { title: `Confirm your subscription to ${page.companyName}`, ...page }) as string;

export const subscriptionConfirmedPage = (page: ConfirmationPage): string => engine.renderSync(done, { title: "You are subscribed", ...page }) as string;

export const confirmationLinkNotFoundPage = (): string => engine.renderSync(notFound, { title: "Link not valid" }) as string;

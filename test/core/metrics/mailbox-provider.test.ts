import test from "ava";
import { mailboxProviderOf, type MailboxProvider } from "../../../core/metrics/mailbox-provider.js";
import { rate } from "../../../core/metrics/model.js";

test("addresses are classified by their mailbox provider", (t) => {
  const cases: Array<[string, MailboxProvider]> = [
    ["ann@gmail.com", "gmail"],
    ["Ann@GoogleMail.com ", "gmail"],
    ["bob@outlook.com", "microsoft"],
    ["bob@hotmail.co.uk", "microsoft"],
    ["bob@live.fr", "microsoft"],
    ["bob@msn.com", "microsoft"],
    ["cy@yahoo.com", "yahoo"],
    ["cy@yahoo.com.br", "yahoo"],
    ["cy@ymail.com", "yahoo"],
    ["cy@rocketmail.com", "yahoo"],
    ["cy@aol.com", "yahoo"],
    ["di@icloud.com", "icloud"],
    ["di@me.com", "icloud"],
    ["di@mac.com", "icloud"],
    ["ed@orange.fr", "orange"],
    ["ed@wanadoo.fr", "orange"],
    ["fa@example.com", "other"],
    // A brand word under a company's own domain is not the provider.
    ["fa@live.example.com", "other"],
    ["fa@outlook-team.com", "other"],
    ["not-an-address", "other"],
  ];
  for (const [email, provider] of cases) t.is(mailboxProviderOf(email), provider, email);
});

test("rates are percentages with two decimals, never above 100, 0 over nothing", (t) => {
  t.is(rate(2, 3), 66.67);
  t.is(rate(1, 3), 33.33);
  t.is(rate(1, 8), 12.5);
  t.is(rate(5, 4), 100);
  t.is(rate(3, 0), 0);
});

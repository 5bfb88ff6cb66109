import type { EmailContent } from "../emails/model.js";

/**
 * The confirmation email a company gets when it chose none (`doubleOptInEmailId`): rendered with
 * its theme and footer like any other. A company's own template reads the same variables:
 * `confirmUrl`, `companyName` and the contact's fields.
 */
export const DEFAULT_CONFIRMATION_EMAIL: EmailContent = {
  subject: "Confirm your subscription to {{ companyName }}",
  previewText: "One click and you are on the list.",
  body: {
    blocks: [
      { type: "heading", content: "Confirm your subscription" },
      { type: "text", content: "Please confirm that you want to receive email from {{ companyName }} at {{ email }}." },
      { type: "button", text: "Confirm subscription", url: "{{ confirmUrl }}" },
      { type: "text", content: "This link works for 7 days. If you did not sign up, ignore this email: you will not hear from us." },
    ],
  },
};

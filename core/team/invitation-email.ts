import type { EmailContent } from "../emails/model.js";

/**
 * The invitation email, rendered with the inviting company's theme. Variables: `companyName`,
 * `inviterName` (the inviting member's name, else their address), `role`, `inviteUrl`, `expiresOn`.
 */
export const INVITATION_EMAIL: EmailContent = {
  subject: "{{ inviterName }} invited you to join {{ companyName }}",
  previewText: "Accept the invitation to get your API key.",
  body: {
    blocks: [
      { type: "heading", content: "Join {{ companyName }}" },
      { type: "text", content: "{{ inviterName }} invited you to join the {{ companyName }} team as {{ role }}." },
      { type: "button", text: "Accept invitation", url: "{{ inviteUrl }}" },
      {
        type: "text",
        content:
          "Accepting makes you a member and shows your API key once. The invitation expires on {{ expiresOn }}. If you did not expect it, ignore this email.",
      },
    ],
  },
};

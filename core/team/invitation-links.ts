/** The link of an invitation: a public page that shows the invitation and accepts it with a button. */
export class InvitationLinks {
  private readonly origin: string;

  constructor(baseUrl: string) {
    this.origin = baseUrl.replace(/\/+$/, "");
  }

  forToken = (token: string): string => `${this.origin}/invitations/${encodeURIComponent(token)}`;
}

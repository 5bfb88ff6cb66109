import { ContainerModule } from "inversify";
import { Sha256InvitationTokens } from "../../adapters/crypto/invitation-tokens.js";
import { KnexInvitationRepository } from "../../adapters/knex/repositories/invitation-repository.js";
import { IssueApiKey } from "../../core/api-keys/issue-api-key.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SuppressionRepository } from "../../core/suppressions/ports.js";
import { AcceptInvitation } from "../../core/team/accept-invitation.js";
import { CancelInvitation } from "../../core/team/cancel-invitation.js";
import { GetTeam } from "../../core/team/get-team.js";
import { InvitationLinks } from "../../core/team/invitation-links.js";
import { InviteTeamMember } from "../../core/team/invite-team-member.js";
import { InvitationRepository, InvitationTokens } from "../../core/team/ports.js";
import { SendInvitationEmail } from "../../core/team/send-invitation-email.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { bindClass } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** The team: members, invitations, their email and their acceptance. */
export const teamModule = new ContainerModule((container) => {
  bindClass(container, KnexInvitationRepository, [Database]);
  container.bind<InvitationRepository>(InvitationRepository).toService(KnexInvitationRepository);
  container.bind<InvitationTokens>(InvitationTokens).toConstantValue(new Sha256InvitationTokens());
  bindClass(container, InvitationLinks, [BaseUrl]);
  bindClass(container, SendInvitationEmail, [SuppressionRepository, ResolveSender, RenderEmail, TrackingLinks, QueueEmailSend]);
  bindClass(container, GetTeam, [TenancyRepository, InvitationRepository, Clock]);
  bindClass(container, InviteTeamMember, [InvitationRepository, TenancyRepository, InvitationTokens, InvitationLinks, SendInvitationEmail, IdGenerator, Clock]);
  bindClass(container, CancelInvitation, [InvitationRepository, Clock]);
  bindClass(container, AcceptInvitation, [InvitationRepository, TenancyRepository, InvitationTokens, IssueApiKey, IdGenerator, Clock]);
});

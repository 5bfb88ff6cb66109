import type { ProfileRepository } from "../company/ports.js";
import type { ResolveSender } from "../company/resolve-sender.js";
import type { QueueEmailSend } from "../delivery/queue-email-send.js";
import { contactVariables } from "../emails/merge-variables.js";
import { previewLinkPlaceholder } from "../emails/preview-merge.js";
import type { RenderEmail } from "../emails/render-email.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { SEQUENCE_NOT_FOUND, type Sequence, type SequenceNode } from "./model.js";
import type { NodeTestCommand } from "./node-commands.js";
import { emailContentOf, emailNode } from "./node-content.js";
import type { SequenceRepository } from "./ports.js";
import { requestedIdentity } from "./sequence-identity.js";

export interface TestSend {
  readonly recipientEmail: string;
  readonly emailSendId: string;
  /** The delivery job is not named per send here: always empty. */
  readonly jobId: string;
}

export interface NodeTestResult {
  readonly sequenceId: string;
  readonly nodeId: string;
  readonly results: readonly TestSend[];
}

/**
 * Sends one email step as a test: rendered for the recipient (a contact of the company fills the
 * merge tags with its values, another address leaves them empty), from the step's sender, marked
 * as a test send, so it never counts in metrics nor touches a contact's engagement. Links are
 * not tracked and the unsubscribe link points at the preview page.
 */
export class SendSequenceTestEmails {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly profiles: ProfileRepository,
    private readonly resolveSender: ResolveSender,
    private readonly render: RenderEmail,
    private readonly queue: QueueEmailSend,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, sequenceId: string, nodeId: string, command: NodeTestCommand): Promise<Result<NodeTestResult>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const node = emailNode(sequence, nodeId);
    if (node._tag === "Left") return node;
    const results: TestSend[] = [];
    for (const recipient of [...new Set(command.recipients)]) {
      const contact = await this.subscribers.findByEmail(actor.companyId, recipient);
      const sent = await this.sendTest(sequence, node.right, recipient, { event: {}, ...(contact ? contactVariables(contact) : {}) });
      if (sent._tag === "Left") return sent;
      results.push({ recipientEmail: recipient, emailSendId: sent.right, jobId: "" });
    }
    return ok({ sequenceId, nodeId, results });
  };

  /**
   * Renders and queues one test send of an email step with these merge values; resolves to its
   * ID (`id` when given: test runs name their sends so a step run again finds its send). Test
   * runs send through here too.
   */
  sendTest = async (
    sequence: Sequence,
    node: SequenceNode,
    recipient: string,
    variables: Readonly<Record<string, unknown>>,
    id?: string,
  ): Promise<Result<string>> => {
    const identity = await requestedIdentity(this.profiles, sequence, node.config);
    const sender = await this.resolveSender.execute(sequence.companyId, identity.from);
    if (sender._tag === "Left") return sender;
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.render.execute(sequence.companyId, {
      content: emailContentOf(node),
      variables,
      links: { unsubscribeUrl: placeholder, viewInBrowserUrl: placeholder },
    });
    if (rendered._tag === "Left") return fail(badRequest(`the email could not be rendered: ${rendered.left.message}`));
    const queued = await this.queue.execute({
      id,
      companyId: sequence.companyId,
      recipient,
      emailType: "sequence",
      automationId: sequence.id,
      automationNodeId: node.id,
      subject: rendered.right.subject,
      html: rendered.right.html,
      text: rendered.right.text,
      sender: { email: sender.right.from.email, name: sender.right.from.name },
      replyTo: identity.replyTo ?? sender.right.replyTo?.email ?? null,
      mailboxProvider: mailboxProviderOf(recipient),
      isTest: true,
      openTracking: false,
      clickTracking: false,
    });
    return queued._tag === "Left" ? queued : ok(queued.right.id);
  };
}

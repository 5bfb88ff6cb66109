import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** What the tally process is told: start a phase, wait for a count, or report. */
export type TallyOrder =
  | {
      readonly op: "phase";
      /** Recipients n in [0, size) are expected, each once. */
      readonly size: number;
      /** Matches a recipient address; its first group is n. */
      readonly pattern: string;
      /** A piece every message's header must hold (its DKIM signature's domain and selector). */
      readonly signature: string;
      /** One message in this many is kept whole. */
      readonly sampleEvery: number;
    }
  | { readonly op: "until"; readonly total: number }
  | { readonly op: "report" };

/** What a phase received. */
export interface TallyReport {
  readonly received: number;
  /** Expected recipients that got a message. */
  readonly distinct: number;
  /** Messages to a recipient that had one already. */
  readonly duplicates: number;
  /** Messages to an address outside the expected ones. */
  readonly outside: number;
  /** Messages without the expected DKIM signature header. */
  readonly unsigned: number;
  /** The kept messages, base64. */
  readonly samples: readonly string[];
}

/** Messages a phase keeps whole, about. */
const SAMPLES = 100;

type Reply = { port?: number; ready?: boolean; reached?: number; stalled?: number; report?: TallyReport };

/**
 * An SMTP sink in a child process that tallies what it receives (smtp-tally-process.ts): for
 * sends too large to keep every message, and so that receiving costs the measured process nothing.
 */
export class SmtpTally {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpTally> {
    const child = fork(new URL("./smtp-tally-process.js", import.meta.url), { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const [reply] = (await once(child, "message")) as [Reply];
    return new SmtpTally(child, reply.port!);
  }

  private asking = false;

  /** One order at a time: the process answers them in turn, and an answer names no order. */
  private async ask(order: TallyOrder): Promise<Reply> {
    if (this.asking) throw new Error(`the SMTP tally was sent ${order.op} while it had not answered the last order`);
    if (this.child.exitCode !== null || this.child.signalCode !== null) {
      throw new Error(`the SMTP tally exited (${String(this.child.exitCode ?? this.child.signalCode)})`);
    }
    this.asking = true;
    // Both waits end with the order: a race against one promise that outlives the orders would keep
    // every answer (a report holds a hundred whole messages) alive in that promise's reactions.
    const done = new AbortController();
    try {
      const answer = once(this.child, "message", { signal: done.signal }) as Promise<[Reply]>;
      const exited = once(this.child, "exit", { signal: done.signal }).then(
        ([code]) => Promise.reject(new Error(`the SMTP tally exited (${String(code)})`)),
        () => new Promise<never>(() => undefined),
      );
      this.child.send(order);
      const [reply] = await Promise.race([answer, exited]);
      return reply;
    } finally {
      done.abort();
      this.asking = false;
    }
  }

  /** Starts counting anew: recipients `pattern` n in [0, size). */
  async phase(order: Omit<Extract<TallyOrder, { op: "phase" }>, "op">): Promise<void> {
    await this.ask({ op: "phase", ...order });
  }

  /**
   * Starts counting `messages` DKIM-signed messages to recipients `pattern` n in [0, size)
   * (default: one to each), keeping about a hundred of them whole to be parsed and verified.
   */
  async expect(pattern: RegExp, size: number, messages = size): Promise<void> {
    await this.phase({ size, pattern: pattern.source, signature: "DKIM-Signature:", sampleEvery: Math.max(1, Math.floor(messages / SAMPLES)) });
  }

  /** Resolves once the phase holds `total` messages; rejects after a minute without one. */
  async until(total: number): Promise<void> {
    const reply = await this.ask({ op: "until", total });
    if (reply.stalled !== undefined) throw new Error(`the SMTP sink holds ${reply.stalled} messages and waits for ${total}: no message for a minute`);
  }

  async report(): Promise<TallyReport> {
    return (await this.ask({ op: "report" })).report!;
  }

  async close(): Promise<void> {
    const exit = once(this.child, "exit");
    this.child.disconnect();
    await exit;
  }
}

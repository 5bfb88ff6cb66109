import { fork, type ChildProcess } from "node:child_process";
import { once } from "node:events";

/** What one side of an HTTP benchmark is loaded with. */
export interface LoadPlan {
  /** Names the side in errors. */
  readonly label: string;
  readonly url: string;
  readonly method: "GET" | "POST";
  readonly connections: number;
  /** Rotated one per request as `Authorization: Bearer ...`, so no key leaves its rate budget; none: no Authorization header. */
  readonly keys: readonly string[];
  /** When given, request n goes to `paths[n % paths.length]` on the url's origin (aligned with `bodies` when both are as long). */
  readonly paths?: readonly string[];
  /** Headers of every request (such as `Origin`, or a `Content-Type` other than JSON). */
  readonly headers?: Readonly<Record<string, string>>;
  /** When given, request n says it comes from one of so many client addresses, in turn (`X-Forwarded-For`, for a server behind a proxy). */
  readonly clientAddresses?: number;
  /** JSON bodies taken in turn; `{n}` in one becomes the request's number in its run. */
  readonly bodies?: readonly string[];
  /** When given, the exact bodies of the answers, taken in turn like the keys (`answers[i]` answers `keys[i]` when both are as long). */
  readonly answers?: readonly string[];
}

/** A run lasts so many seconds, or until so many requests were answered. */
export type Extent = { readonly duration: number } | { readonly amount: number };

export interface LoadOrder {
  readonly plan: LoadPlan;
  readonly extent: Extent;
}

export interface LoadReport {
  readonly ok: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  /** Answers whose body was not the one expected. */
  readonly wrong: number;
  /** Answers by status code. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly seconds: number;
}

/**
 * autocannon in a process of its own, one for both sides of a benchmark: a client in the
 * server's process would take CPU time from the server and flatter whichever side needs less.
 */
export class HttpLoad {
  /** Rejects once the child has exited, which it only should when closed. */
  private readonly exited: Promise<never>;

  private constructor(private readonly child: ChildProcess) {
    this.exited = once(child, "exit").then(([code]) => {
      throw new Error(`the load generator exited (${String(code)})`);
    });
    this.exited.catch(() => undefined);
  }

  static async start(): Promise<HttpLoad> {
    const child = fork(new URL("./http-load-process.js", import.meta.url), { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    await once(child, "spawn");
    return new HttpLoad(child);
  }

  /**
   * One run; throws unless every answer was a 2xx (with the expected body, if given) and nothing
   * failed. A warm-up is not measured: there, answers the server shed (503, while its code is cold
   * or the machine busy) are let pass, as long as the others are right. So they are in a run whose
   * caller sends the shed requests again itself (`shedSentAgain`), as a client of the API would.
   */
  async run(
    plan: LoadPlan,
    extent: Extent,
    { warmUp = false, shedSentAgain = false }: { readonly warmUp?: boolean; readonly shedSentAgain?: boolean } = {},
  ): Promise<LoadReport & { readonly rate: number }> {
    const answer = once(this.child, "message") as Promise<[{ report?: LoadReport; error?: string }]>;
    this.child.send({ plan, extent } satisfies LoadOrder);
    const [{ report, error }] = await Promise.race([answer, this.exited]);
    if (!report) throw new Error(`${plan.label}: the load generator failed: ${error}`);
    const shedLetPass = warmUp || shedSentAgain ? (report.statuses["503"] ?? 0) : 0;
    const problems = [
      report.non2xx > shedLetPass ? `${report.non2xx} non-2xx answers (by status: ${JSON.stringify(report.statuses)})` : "",
      report.errors > 0 ? `${report.errors} errors` : "",
      report.timeouts > 0 ? `${report.timeouts} timeouts` : "",
      report.wrong > shedLetPass ? `${report.wrong} answers with another body than expected` : "",
      report.ok === 0 ? "no 2xx answers" : "",
      "amount" in extent && report.ok + shedLetPass !== extent.amount ? `${report.ok} of ${extent.amount} requests answered` : "",
    ].filter(Boolean);
    // The product sheds load (503) when its event loop lags, which a machine busy with other work causes too.
    const shed = (report.statuses["503"] ?? 0) > 0 ? "; 503s are load shed by a lagging event loop: is the machine busy with other work?" : "";
    if (problems.length > 0) throw new Error(`${plan.label} run is invalid: ${problems.join(", ")}${shed}`);
    return { ...report, rate: report.ok / report.seconds };
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.disconnect();
    await this.exited.catch(() => undefined);
  }
}

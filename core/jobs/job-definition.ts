import * as t from "io-ts";
import { isLeft, left, right, type Either } from "fp-ts/lib/Either.js";
import type { Job, JobRequest } from "../ports/job-queue.js";
import { reportErrors } from "../shared/codecs.js";

/** Whether a job type acts for one company (its handler needs the ID) or for none (schedules). */
export type CompanyRule = "required" | "none";

/** What a handler of a defined job receives, decoded: a company job always has its company. */
export interface JobWork<P, C extends CompanyRule> {
  readonly payload: P;
  readonly companyId: C extends "required" ? string : null;
}

/** How one job is queued, besides its payload: a company job cannot be queued without its company. */
export type JobOptions<C extends CompanyRule> = Omit<JobRequest, "type" | "payload" | "companyId"> &
  (C extends "required" ? { readonly companyId: string } : { readonly companyId?: never });

/** A payload as stored: a JSON object. */
export type StoredPayload = Readonly<Record<string, unknown>>;

/**
 * A job that cannot run as stored (its payload does not decode, or it names no company): no
 * retry can change that, so the worker records why and buries it at once.
 */
export class UnrunnableJob extends Error {
  override readonly name = "UnrunnableJob";
}

export interface JobDefinition<P, C extends CompanyRule> {
  readonly type: string;
  readonly company: C;
  /** A request for this job type: the payload encoded, the definition's defaults under the options. */
  request(payload: P, ...options: C extends "required" ? [JobOptions<C>] : [JobOptions<C>?]): JobRequest;
  /** The job's payload and company as its handler needs them, or why the job cannot run. */
  decode(job: Pick<Job, "id" | "type" | "payload" | "companyId">): Either<UnrunnableJob, JobWork<P, C>>;
}

/** What the handler of a definition receives: `WorkOf<typeof SomeJob>`. */
export type WorkOf<D> = D extends JobDefinition<infer P, infer C> ? JobWork<P, C> : never;

export interface JobSpec<P, C extends CompanyRule> {
  readonly type: string;
  /** The payload's codec: what the handler receives, and the JSON object stored in the queue. */
  readonly payload: t.Type<P, StoredPayload, unknown>;
  readonly company: C;
  /** Attempts before the job is dead (the queue's default when absent). */
  readonly maxAttempts?: number;
}

/** A job type with a typed payload: enqueueing encodes it, running decodes it (see UnrunnableJob). */
export function defineJob<P, C extends CompanyRule>(spec: JobSpec<P, C>): JobDefinition<P, C> {
  return {
    type: spec.type,
    company: spec.company,
    request(payload, ...[options]) {
      const { maxAttempts = spec.maxAttempts, ...rest } = options ?? {};
      return { ...rest, ...(maxAttempts === undefined ? {} : { maxAttempts }), type: spec.type, payload: spec.payload.encode(payload) };
    },
    decode(job) {
      if (job.type !== spec.type) return left(new UnrunnableJob(`job ${job.id} is a ${job.type} job, not ${spec.type}`));
      if (spec.company === "required" && !job.companyId) return left(new UnrunnableJob(`${spec.type} job ${job.id} names no company`));
      const payload = spec.payload.decode(job.payload);
      if (isLeft(payload)) {
        const problems = reportErrors(payload.left).map(({ path, message }) => `${path === "body" ? "payload" : path} ${message}`);
        return left(new UnrunnableJob(`${spec.type} job ${job.id} has a malformed payload: ${problems.join("; ")}`));
      }
      const companyId = (spec.company === "required" ? job.companyId : null) as JobWork<P, C>["companyId"];
      return right({ payload: payload.right, companyId });
    },
  };
}

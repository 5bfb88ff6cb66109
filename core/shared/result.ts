import { left, right, type Either } from "fp-ts/lib/Either.js";
import type { DomainError } from "./errors.js";

/** What every use case returns: a domain error or its output. */
export type Result<A> = Either<DomainError, A>;

export const ok = <A>(value: A): Result<A> => right(value);
export const fail = <A = never>(error: DomainError): Result<A> => left(error);
export { isLeft, isRight } from "fp-ts/lib/Either.js";

/** A refused transition inside a job step or run is a bug, not a user error: it throws (the job retries). */
export function must<A>(result: Result<A>): A {
  if (result._tag === "Left") throw new Error(result.left.message);
  return result.right;
}

/**
 * The domain's failures. Hosts map each tag to a status in one exhaustive switch
 * (hosts/http/error-status.ts); messages are the spec's own words where it gives them.
 */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

interface ErrorBase {
  readonly message: string;
  /** Machine-readable code the spec names (e.g. `not_found`, `connection_failed`). */
  readonly code?: string;
  /** Extra top-level fields of the error body (the spec's rich errors: title, howToFix, details...). */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** When true the body carries only `error` (and `code`), without `success:false`, as the spec shows for some routes. */
  readonly bare?: boolean;
}

export type DomainError =
  | (ErrorBase & { readonly _tag: "Invalid"; readonly errors?: readonly FieldError[] })
  | (ErrorBase & { readonly _tag: "BadRequest" })
  | (ErrorBase & { readonly _tag: "Unauthorized" })
  | (ErrorBase & { readonly _tag: "Forbidden" })
  | (ErrorBase & { readonly _tag: "NotFound" })
  | (ErrorBase & { readonly _tag: "Conflict" })
  | (ErrorBase & { readonly _tag: "InvalidState" })
  | (ErrorBase & { readonly _tag: "Failed" });

export type DomainErrorTag = DomainError["_tag"];

type Options = Omit<ErrorBase, "message">;

/** 422: input that does not match its type or enumeration. */
export const invalid = (message: string, errors?: readonly FieldError[], options: Options = {}): DomainError => ({
  _tag: "Invalid",
  message,
  ...(errors ? { errors } : {}),
  ...options,
});
/** 400: input that is well-typed but not acceptable (blank value, rule broken). */
export const badRequest = (message: string, options: Options = {}): DomainError => ({ _tag: "BadRequest", message, ...options });
export const unauthorized = (message: string, options: Options = {}): DomainError => ({ _tag: "Unauthorized", message, ...options });
export const forbidden = (message: string, options: Options = {}): DomainError => ({ _tag: "Forbidden", message, ...options });
export const notFound = (message: string, options: Options = {}): DomainError => ({ _tag: "NotFound", message, ...options });
export const conflict = (message: string, options: Options = {}): DomainError => ({ _tag: "Conflict", message, ...options });
/** 400: the entity's current state does not allow the operation. */
export const invalidState = (message: string, options: Options = {}): DomainError => ({ _tag: "InvalidState", message, ...options });
/** 500: the operation ran but part of it failed; the body says which part (spec: account event deliveries). */
export const failed = (message: string, options: Options = {}): DomainError => ({ _tag: "Failed", message, ...options });

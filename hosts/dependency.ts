import type { Token } from "../core/shared/token.js";

/** What a binding or a route module is given: a class bound to itself, or a typed token. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor, whatever it takes
export type Dependency<T = unknown> = (abstract new (...args: any[]) => T) | Token<T>;

/** One dependency per parameter, in order: a dependency giving the wrong type does not compile. */
export type Dependencies<A extends readonly unknown[]> = { readonly [K in keyof A]: Dependency<A[K]> };

/** What each named dependency gives. */
export type Resolved<D> = { readonly [K in keyof D]: D[K] extends Dependency<infer T> ? T : never };

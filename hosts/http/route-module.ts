import type { Container } from "inversify";
import type { Route } from "./route.js";

declare const carried: unique symbol;
/** A container token together with the type of what it gives (ports and values are bound to symbols). */
export interface Token<T> {
  readonly id: symbol;
  readonly [carried]?: T;
}
export const token = <T>(id: symbol): Token<T> => ({ id });

/** What a route module names to be given: a use case class, or a typed token. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any constructor, whatever it takes
export type Dependency<T = unknown> = (abstract new (...args: any[]) => T) | Token<T>;

export type Resolved<D> = { readonly [K in keyof D]: D[K] extends Dependency<infer T> ? T : never };

/**
 * A group of routes and the use cases they call, given once when the routes are mounted: the
 * handlers close over them instead of looking them up per request.
 */
export interface RouteModule {
  mount(container: Container): readonly Route[];
}

export function routeModule<D extends Record<string, Dependency>>(dependencies: D, routes: (uses: Resolved<D>) => readonly Route[]): RouteModule {
  return { mount: (container) => routes(resolveDependencies(container, dependencies)) };
}

/** Gets each named dependency from the container, once. */
export function resolveDependencies<D extends Record<string, Dependency>>(container: Container, dependencies: D): Resolved<D> {
  const uses = Object.fromEntries(
    Object.entries(dependencies).map(([name, dependency]) => [name, container.get(typeof dependency === "function" ? dependency : dependency.id)]),
  );
  return uses as Resolved<D>;
}

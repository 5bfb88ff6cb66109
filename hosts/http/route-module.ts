import type { Container } from "inversify";
import type { Dependency, Resolved } from "../dependency.js";
import type { Route } from "./route.js";

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
  const uses = Object.fromEntries(Object.entries(dependencies).map(([name, dependency]) => [name, container.get(dependency)]));
  return uses as Resolved<D>;
}

import type { ContainerModuleLoadOptions, ServiceIdentifier } from "inversify";
import type { Dependencies, Dependency } from "./dependency.js";

/** Binds a plain class (no decorators) to itself, built from the listed dependencies in constructor order. */
export function bindClass<T, A extends unknown[]>(
  container: Pick<ContainerModuleLoadOptions, "bind">,
  Class: new (...args: A) => T,
  dependencies: Dependencies<A>,
): void {
  // The list was checked against the parameters above; Inversify resolves it in the same order.
  const identifiers: ServiceIdentifier[] = [...dependencies];
  container.bind(Class).toResolvedValue((...args: unknown[]) => new Class(...(args as A)), identifiers);
}

/**
 * Binds a class or a typed token to what `build` returns, given the listed dependencies in parameter order:
 * for what a bare constructor cannot express (an extra argument, a derived value, a disposer to register).
 * The list is checked against the parameters of `build`, and what it returns against what the binding gives.
 */
export function bindFactory<T, A extends unknown[]>(
  container: Pick<ContainerModuleLoadOptions, "bind">,
  identifier: Dependency<T>,
  build: (...args: A) => NoInfer<T>,
  dependencies: Dependencies<A>,
): void {
  // As in bindClass: the list was checked against the parameters above; Inversify resolves it in the same order.
  const identifiers: ServiceIdentifier[] = [...dependencies];
  container.bind<T>(identifier).toResolvedValue((...args: unknown[]) => build(...(args as A)), identifiers);
}

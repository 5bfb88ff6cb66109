import type { ContainerModuleLoadOptions, ServiceIdentifier } from "inversify";
import type { Dependencies } from "./dependency.js";

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

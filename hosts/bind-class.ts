import type { Container, ServiceIdentifier } from "inversify";

/** Binds a plain class (no decorators) to itself, built from the listed services in constructor order. */
export function bindClass<T, A extends unknown[]>(container: Container, Class: new (...args: A) => T, dependencies: { [K in keyof A]: ServiceIdentifier }): void {
  container.bind<T>(Class).toResolvedValue((...args: unknown[]) => new Class(...(args as A)), dependencies as never);
}

import type { Router } from "express";
import type { Container } from "inversify";
import type { Dependency, Resolved } from "../dependency.js";
import { resolveDependencies } from "./route-module.js";

/**
 * Routes reached without an API key (tracking links, unsubscribe pages, provider webhooks), one
 * router per surface, given what its handlers call once, when it is mounted.
 */
export interface PublicSurface {
  mount(container: Container): Router;
}

export function publicSurface<D extends Record<string, Dependency>>(dependencies: D, router: (uses: Resolved<D>) => Router): PublicSurface {
  return { mount: (container) => router(resolveDependencies(container, dependencies)) };
}

import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { WarehouseConnectionRepository } from "./ports.js";
import { toConnectionView, type ConnectionView } from "./view.js";

/** GET /warehouse-connections: the company's connections, newest first, passwords masked. */
export class ListWarehouseConnections {
  constructor(private readonly connections: WarehouseConnectionRepository) {}

  execute = async (actor: Actor): Promise<Result<ConnectionView[]>> => ok((await this.connections.list(actor.companyId)).map(toConnectionView));
}

import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateConnectionCommand } from "./commands.js";
import { maskUrl, parseWarehouseUrl } from "./connection-url.js";
import { connectionFailed, invalidInput } from "./errors.js";
import type { WarehouseConnection } from "./model.js";
import { WarehouseError, type WarehouseConnectionRepository, type WarehouseReader } from "./ports.js";
import { toConnectionView, type ConnectionView } from "./view.js";

/** How long the connection test may take. */
export const CONNECTION_TEST_TIMEOUT_MS = 15_000;

/**
 * POST /warehouse-connections: checks the URL, connects once (refusing private addresses unless
 * allowed) and stores the URL sealed; only the URL with its password masked is kept in plain
 * text and shown. SQLite files on the server are accepted only with ALLOW_PRIVATE_DESTINATIONS.
 */
export class CreateWarehouseConnection {
  constructor(
    private readonly connections: WarehouseConnectionRepository,
    private readonly reader: WarehouseReader,
    private readonly secrets: SecretBox,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly allowPrivateDestinations: boolean,
  ) {}

  execute = async (actor: Actor, command: CreateConnectionCommand): Promise<Result<ConnectionView>> => {
    if (command.kind === "sqlite" && !this.allowPrivateDestinations) {
      return fail(invalidInput("sqlite warehouses (a file on the server) are accepted only when ALLOW_PRIVATE_DESTINATIONS=true"));
    }
    const parsed = parseWarehouseUrl(command.kind, command.url);
    if (!parsed.ok) return fail(invalidInput(parsed.reason));
    const source = { kind: command.kind, url: command.url };
    try {
      await this.reader.check(source, CONNECTION_TEST_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof WarehouseError) return fail(connectionFailed(`Could not connect to the warehouse: ${error.message}`));
      throw error;
    }
    const now = this.clock.now();
    const connection: WarehouseConnection = {
      id: this.ids.next("whc"),
      companyId: actor.companyId,
      name: command.name,
      kind: command.kind,
      displayUrl: maskUrl(command.kind, command.url),
      sealedUrl: this.secrets.seal(command.url),
      hasPassword: parsed.target.kind === "postgres" && parsed.target.password !== null,
      createdAt: now,
      updatedAt: now,
    };
    await this.connections.insert(connection);
    return ok(toConnectionView(connection));
  };
}

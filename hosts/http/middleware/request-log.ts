import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestHandler } from "express";
import { pinoHttp } from "pino-http";
import type { Actor } from "../../../core/shared/actor.js";
import type { Logger } from "../../logger.js";

type Response = ServerResponse & { locals?: { actor?: Actor; shed?: boolean } };

/** Who made the request, known once authentication ran: the company and key ID, never the key. */
const who = (res: Response) => {
  const actor = res.locals?.actor;
  return actor ? { companyId: actor.companyId, apiKeyId: actor.apiKeyId } : {};
};

/**
 * One JSON line per request: request id (the caller's `x-request-id` or a new one, echoed
 * back), method, path, status, duration, company and key ID. Headers are never logged, so
 * neither are keys. Requests shed under load are summarised by the shedder instead.
 */
export function requestLog(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req, res) => {
      const given = req.headers["x-request-id"];
      const id = typeof given === "string" && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
      res.setHeader("x-request-id", id);
      return id;
    },
    serializers: {
      req: (req: IncomingMessage & { id?: string; raw?: IncomingMessage }) => ({ id: req.id, method: req.method, path: (req.raw ?? req).url?.split("?")[0] }),
      res: (res: ServerResponse) => ({ status: res.statusCode }),
    },
    customSuccessObject: (_req, res, value: object) => ({ ...value, ...who(res as Response) }),
    customErrorObject: (_req, res, _error, value: object) => ({ ...value, ...who(res as Response) }),
    // Requests refused by load shedding are counted by the shedder instead (one line a second).
    customLogLevel: (_req, res, error) => ((res as Response).locals?.shed ? "silent" : error || res.statusCode >= 500 ? "error" : "info"),
  });
}

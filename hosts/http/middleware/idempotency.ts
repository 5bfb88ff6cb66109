import { createHash } from "node:crypto";
import type { RequestHandler } from "express";
import type { IdempotencyStore } from "../../../core/idempotency/ports.js";
import type { Clock } from "../../../core/ports/clock.js";
import { actorOf } from "../actor.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** JSON with object keys sorted at every level, so key order does not change the fingerprint. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const rejected = (error: string) => ({ success: false, error });

/**
 * `Idempotency-Key` for POST routes that create or send, mounted after authentication (and the
 * JSON parser). Without the header the request passes untouched. With it, the first response
 * below 500 is stored per company and key for `ttlMs` and replayed to retries of the same
 * request; a 5xx, or a response without a JSON body, frees the key for a retry.
 */
export function idempotency(store: IdempotencyStore, clock: Clock, { ttlMs = DAY_MS }: { ttlMs?: number } = {}): RequestHandler {
  return async (req, res, next) => {
    const key = req.get("idempotency-key");
    if (key === undefined) return next();
    if (key.length < 1 || key.length > 255) {
      res.status(400).json(rejected("Idempotency-Key must be 1 to 255 characters"));
      return;
    }
    const { companyId } = actorOf(res);
    // req.path is relative to the API router, so /api/v1/x and /v1/x are the same request.
    // An absent body is the empty object, as the routes read it.
    const requestHash = createHash("sha256")
      .update(canonicalJson(req.body ?? {}))
      .digest("hex");
    const begun = await store.begin(companyId, key, { method: req.method, path: req.path, requestHash }, clock.now(), ttlMs);
    switch (begun.kind) {
      case "replay":
        res.set("Idempotent-Replayed", "true").status(begun.status).json(begun.body);
        return;
      case "in_flight":
        res.status(409).json(rejected("A request with this Idempotency-Key is already in progress"));
        return;
      case "mismatch":
        res.status(409).json(rejected("This Idempotency-Key was already used with a different request"));
        return;
      case "started":
        break;
    }

    let settled = false;
    const send = res.json.bind(res);
    res.json = ((body: unknown) => {
      if (settled) return send(body);
      settled = true;
      const status = res.statusCode;
      const record = status < 500 ? store.complete(companyId, key, status, body) : store.abandon(companyId, key);
      // Recorded before it is sent, so a retry made the moment the client has its answer is
      // replayed rather than told "in progress". A failure to record must not cost the client
      // the answer to a request that did run: the record then stays in flight until it expires.
      record
        .catch(() => undefined)
        .then(() => send(body))
        .catch(next);
      return res;
    }) as typeof res.json;
    // Ended without a JSON body (res.end, sendStatus): nothing to replay, so the key is freed.
    // A client that hangs up early does not free it: the handler may still be running.
    res.on("finish", () => {
      if (!settled) {
        settled = true;
        store.abandon(companyId, key).catch(() => undefined);
      }
    });
    next();
  };
}

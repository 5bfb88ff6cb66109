import { Agent, request, type Server } from "node:http";
import type { Express } from "express";

/** A positive number of seconds from the environment, or the fallback when unset. */
export const seconds = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds (got ${raw})`);
  return value;
};

/** A positive integer from the environment, or the fallback when unset. */
export const count = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer (got ${raw})`);
  return value;
};

/** Serves `app` on an ephemeral loopback port. */
export function listen(app: Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/**
 * A keep-alive JSON POST through node:http: the load generator shares the process with the
 * server, and fetch costs several times more CPU per request, which would be charged to the API.
 */
export function jsonPoster(url: string, connections: number): (headers: Record<string, string>, body: unknown) => Promise<{ status: number; text: string }> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  return (headers, body) =>
    new Promise((resolve, reject) => {
      const payload = JSON.stringify(body);
      const req = request(
        url,
        { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }));
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
}

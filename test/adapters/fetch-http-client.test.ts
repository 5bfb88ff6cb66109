import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import test from "ava";
import { FetchHttpClient } from "../../adapters/http/fetch-http-client.js";
import { HttpRequestError } from "../../core/ports/http-client.js";

/** A loopback server: /json answers, /slow never does, /big streams 2 MB, /redirect points elsewhere. */
async function server(): Promise<{ url: string; server: Server; hits: string[] }> {
  const hits: string[] = [];
  const http = createServer((req, res) => {
    hits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    if (req.url?.startsWith("/json")) {
      res.writeHead(201, { "content-type": "application/json", "X-Thing": "yes" }).end(JSON.stringify({ ok: true }));
    } else if (req.url === "/big") {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunk = "x".repeat(64 * 1024);
      for (let i = 0; i < 32; i++) res.write(chunk);
      res.end();
    } else if (req.url === "/redirect") {
      res.writeHead(302, { location: "/json?followed=1" }).end();
    }
    // /slow: no answer.
  });
  http.listen(0, "127.0.0.1");
  await once(http, "listening");
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`, server: http, hits };
}

test("sends the request and returns status, lower-cased headers and body", async (t) => {
  const peer = await server();
  t.teardown(() => peer.server.closeAllConnections());
  t.teardown(() => peer.server.close());
  const response = await new FetchHttpClient().send({ method: "GET", url: `${peer.url}/json?a=1`, headers: { authorization: "Basic abc" } });
  t.is(response.status, 201);
  t.is(response.headers["x-thing"], "yes");
  t.deepEqual(JSON.parse(response.body), { ok: true });
  t.deepEqual(peer.hits, ["GET /json?a=1 Basic abc"]);
});

test("a call past its time limit, a body over the cap and an unreachable host fail with HttpRequestError", async (t) => {
  const peer = await server();
  t.teardown(() => peer.server.closeAllConnections());
  t.teardown(() => peer.server.close());
  const client = new FetchHttpClient();
  const slow = await t.throwsAsync(client.send({ method: "GET", url: `${peer.url}/slow`, timeoutMs: 200 }), { instanceOf: HttpRequestError });
  t.regex(slow.message, /did not answer in time/);
  const big = await t.throwsAsync(client.send({ method: "GET", url: `${peer.url}/big`, maxResponseBytes: 1024 * 1024 }), { instanceOf: HttpRequestError });
  t.regex(big.message, /is larger than 1048576 bytes/);
  t.is((await client.send({ method: "GET", url: `${peer.url}/big`, maxResponseBytes: 4 * 1024 * 1024 })).body.length, 2 * 1024 * 1024);
  const closed = await t.throwsAsync(client.send({ method: "GET", url: "http://127.0.0.1:1/?apiKey=secret", timeoutMs: 2000 }), {
    instanceOf: HttpRequestError,
  });
  t.regex(closed.message, /^Could not reach http:\/\/127\.0\.0\.1:1/);
  t.false(closed.message.includes("secret"), "the query (which may hold credentials) is not in the message");
});

test("redirects are handed back, not followed", async (t) => {
  const peer = await server();
  t.teardown(() => peer.server.closeAllConnections());
  t.teardown(() => peer.server.close());
  const response = await new FetchHttpClient().send({ method: "GET", url: `${peer.url}/redirect` });
  t.is(response.status, 302);
  t.is(response.headers.location, "/json?followed=1");
  t.deepEqual(
    peer.hits.map((hit) => hit.trim()),
    ["GET /redirect"],
  );
});

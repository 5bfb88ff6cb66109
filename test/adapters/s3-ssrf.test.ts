import { once } from "node:events";
import { get } from "node:http";
import { createServer as createHttpServer } from "node:http";
import { createServer, type LookupFunction, type Socket } from "node:net";
import test, { type ExecutionContext } from "ava";
import { S3BucketWriter } from "../../adapters/s3/s3-bucket-writer.js";
import { destinationAgents } from "../../adapters/s3/destination-agents.js";
import { endpointOriginProblem } from "../../core/data-exports/endpoint-origin.js";
import { BucketWriteError, type BucketDestination } from "../../core/ports/bucket-writer.js";
import { startS3Server } from "../helpers/s3-server.js";

/** Private, loopback, link-local, shared, unspecified and reserved addresses, IPv4 and IPv6. */
const PRIVATE_ADDRESSES = [
  "127.0.0.1",
  "127.255.255.254",
  "10.0.0.1",
  "10.255.255.254",
  "172.16.0.1",
  "172.31.255.254",
  "192.168.0.1",
  "192.168.255.254",
  "169.254.169.254",
  "169.254.0.1",
  "100.64.0.1",
  "100.127.255.254",
  "0.0.0.0",
  "192.0.2.2",
  "198.18.0.1",
  "224.0.0.1",
  "255.255.255.255",
  "240.0.0.1",
  "::1",
  "::",
  "::ffff:127.0.0.1",
  "::ffff:169.254.169.254",
  "::ffff:10.0.0.1",
  "fc00::1",
  "fd00::2",
  "fe80::1",
  "64:ff9b::7f00:1",
  "2002:7f00:1::",
];

const urlHost = (address: string) => (address.includes(":") ? `[${address}]` : address);

/** A TCP listener on every local address (IPv4 and IPv6) of one port, counting connections. */
async function trap(t: ExecutionContext) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.destroy();
  }).listen(0, "::");
  await once(server, "listening");
  t.teardown(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  return { port: (server.address() as { port: number }).port, connections: () => connections };
}

const destination = (endpoint: string): BucketDestination => ({
  provider: "s3",
  bucket: "exports",
  region: "auto",
  endpoint,
  accessKeyId: "AKIAEXAMPLE",
  secretAccessKey: "secret-that-must-not-leak",
});

async function refused(t: ExecutionContext, writer: S3BucketWriter, endpoint: string, message: string | RegExp) {
  const bucket = writer.open(destination(endpoint));
  try {
    for (const call of [
      () => bucket.put("acme/_service/connection-test.json", "{}", { contentType: "application/json" }),
      () => bucket.exists("acme/_service/connection-test.json"),
      () =>
        bucket.upload(
          "acme/a.jsonl.gz",
          (async function* () {
            yield Buffer.from("x");
          })(),
          { contentType: "application/x-ndjson" },
        ),
    ]) {
      const error = await t.throwsAsync(call(), { instanceOf: BucketWriteError }, endpoint);
      if (typeof message === "string") t.is(error?.message, message, endpoint);
      else t.regex(error?.message ?? "", message, endpoint);
      t.false(error?.message.includes("secret-that-must-not-leak"));
    }
  } finally {
    bucket.close();
  }
}

test("every private or reserved address given literally as the endpoint is refused, over https and http, and nothing connects", async (t) => {
  const { port, connections } = await trap(t);
  const writer = new S3BucketWriter({ allowPrivateDestinations: false, connectionTimeoutMs: 2000, requestTimeoutMs: 2000 });
  for (const address of PRIVATE_ADDRESSES) {
    await refused(t, writer, `https://${urlHost(address)}:${port}`, "The endpoint must resolve to a public address.");
    await refused(t, writer, `http://${urlHost(address)}:${port}`, "The endpoint must be an https:// URL.");
  }
  // Other spellings of loopback that URL parsers normalise, and the loopback names.
  for (const host of ["2130706433", "0x7f.1", "127.1", "0177.0.0.1", "localhost", "LOCALHOST.", "bucket.localhost", "[::ffff:7f00:1]", "[0:0:0:0:0:0:0:1]"]) {
    await refused(t, writer, `https://${host}:${port}`, "The endpoint must resolve to a public address.");
  }
  t.is(connections(), 0);
});

test("a host name resolving to any private or reserved address is refused when connecting (DNS rebinding), and nothing connects", async (t) => {
  const { port, connections } = await trap(t);
  let answer = "127.0.0.1";
  const lookups: string[] = [];
  // Stands in for DNS: answers whatever the test says, as a rebinding name server would.
  const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    lookups.push(hostname);
    const family = answer.includes(":") ? 6 : 4;
    if (options.all) callback(null, [{ address: answer, family }]);
    else callback(null, answer, family);
  }) as unknown as LookupFunction;
  const writer = new S3BucketWriter({ allowPrivateDestinations: false, connectionTimeoutMs: 2000, requestTimeoutMs: 2000, lookup });
  for (const address of PRIVATE_ADDRESSES) {
    answer = address;
    const before = lookups.length;
    await refused(
      t,
      writer,
      `https://s3.rebinding.example:${port}`,
      `The destination "s3.rebinding.example:${port}" resolves to a private or reserved address, which is not allowed.`,
    );
    t.true(lookups.length > before, `${address}: resolved when connecting`);
  }
  t.is(connections(), 0);
});

test("a name answering a public and a private address at once is refused", async (t) => {
  const { port, connections } = await trap(t);
  const lookup = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all)
      callback(null, [
        { address: "93.184.215.14", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ]);
    else callback(null, "127.0.0.1", 4);
  }) as unknown as LookupFunction;
  const writer = new S3BucketWriter({ allowPrivateDestinations: false, connectionTimeoutMs: 2000, requestTimeoutMs: 2000, lookup });
  await refused(t, writer, `https://mixed.example:${port}`, /resolves to a private or reserved address/);
  t.is(connections(), 0);
});

test("the agents refuse loopback names resolved by the system resolver when connecting", async (t) => {
  const { port, connections } = await trap(t);
  const { httpAgent } = destinationAgents({ allowPrivate: false });
  t.teardown(() => httpAgent.destroy());
  const error = await new Promise<Error>((resolve) => {
    get({ host: "localhost", port, path: "/", agent: httpAgent }, () => resolve(new Error("answered"))).on("error", resolve);
  });
  t.regex(error.message, /DNS lookup .*127\.0\.0\.1.* is not allowed|DNS lookup .*::1.* is not allowed/);
  t.is(connections(), 0);
});

test("a redirect is not followed: the redirect's target sees no request", async (t) => {
  const target = await trap(t);
  const redirector = createHttpServer((request, response) => {
    request.resume();
    request.once("end", () => {
      response.writeHead(307, { Location: `http://127.0.0.1:${target.port}${request.url}`, "Content-Type": "application/xml" });
      response.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>TemporaryRedirect</Code><Message>Please re-send this request to the specified temporary endpoint.</Message></Error>',
      );
    });
  }).listen(0, "127.0.0.1");
  await once(redirector, "listening");
  t.teardown(() => {
    redirector.closeAllConnections();
    redirector.close();
  });
  const port = (redirector.address() as { port: number }).port;
  // Private destinations allowed here only so that the redirecting server can be on loopback.
  const writer = new S3BucketWriter({ allowPrivateDestinations: true, requestTimeoutMs: 20_000 });
  const bucket = writer.open(destination(`http://127.0.0.1:${port}`));
  t.teardown(() => bucket.close());
  await t.throwsAsync(bucket.put("acme/_service/connection-test.json", "{}", { contentType: "application/json" }), {
    instanceOf: BucketWriteError,
    message: `The destination "127.0.0.1:${port}" answered with a redirect, which is not followed.`,
  });
  t.is(target.connections(), 0);
});

test("with ALLOW_PRIVATE_DESTINATIONS a loopback s3rver is reachable over plain http, by address and by name", async (t) => {
  const server = await startS3Server(t, ["exports"]);
  const writer = new S3BucketWriter({ allowPrivateDestinations: true });
  const port = new URL(server.endpoint).port;
  for (const endpoint of [server.endpoint, `http://localhost:${port}`]) {
    const bucket = writer.open({ ...destination(endpoint), region: server.region, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey });
    const key = `acme/${new URL(endpoint).hostname}/_service/connection-test.json`;
    await bucket.put(key, '{"ok":true}', { contentType: "application/json" });
    t.true(await bucket.exists(key));
    bucket.close();
    t.deepEqual(JSON.parse((await server.getObject("exports", key)).toString("utf8")), { ok: true });
  }
});

test("the endpoint validator: an https origin with a public or unresolved host passes; anything else gets a readable reason", (t) => {
  for (const ok of [
    "https://s3.eu-central-1.wasabisys.com",
    "https://minio.example.com:9000",
    "https://minio.example.com:9000/",
    "https://8.8.8.8",
    "https://[2606:4700::1111]",
  ]) {
    t.is(endpointOriginProblem(ok, false), null, ok);
  }
  t.is(endpointOriginProblem("not a url", false), "endpoint must be a URL such as https://s3.example.com");
  t.is(endpointOriginProblem("s3.example.com", false), "endpoint must be a URL such as https://s3.example.com");
  t.is(endpointOriginProblem("http://s3.example.com", false), "endpoint must be an https:// URL");
  t.is(endpointOriginProblem("ftp://s3.example.com", true), "endpoint must be an https:// URL");
  t.is(endpointOriginProblem("https://user:pass@s3.example.com", false), "endpoint must not contain credentials");
  for (const withPath of ["https://s3.example.com/bucket", "https://s3.example.com/?x=1", "https://s3.example.com/#frag", "https://s3.example.com?"]) {
    t.is(endpointOriginProblem(withPath, false), "endpoint must be an origin (scheme, host and optional port) without a path, query or fragment", withPath);
  }
  t.is(endpointOriginProblem("https://169.254.169.254", false), "endpoint must resolve to a public address");
  t.is(endpointOriginProblem("https://169.254.169.254", true), null);
  t.is(endpointOriginProblem("http://127.0.0.1:9000", true), null);
});

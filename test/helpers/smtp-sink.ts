import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface Received {
  readonly raw: Buffer;
  readonly from: string;
  readonly to: string[];
  readonly user: string | undefined;
}

/** A real SMTP server on loopback that keeps every message (auth optional, user/pass "relay"/"s3cret"). */
export async function smtpSink(t: { teardown(fn: () => Promise<void>): void }) {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "relay" && auth.password === "s3cret") callback(null, { user: auth.username });
      else callback(new Error("Invalid credentials"));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith("reject")) callback(new Error("550 No such user"));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          raw: Buffer.concat(chunks),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
        });
        callback();
      });
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  const port = (server.server.address() as AddressInfo).port;
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, received };
}

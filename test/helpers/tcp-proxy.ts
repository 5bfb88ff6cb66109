import { createServer, connect, type Server, type Socket } from "node:net";
import { once } from "node:events";

/** A TCP proxy on loopback that can be taken down and brought back, to simulate a database outage. */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<number> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
    });
    server.listen(this.port, "127.0.0.1");
    await once(server, "listening");
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    return this.port;
  }

  /** Refuses new connections and cuts the open ones, as a stopped server would. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

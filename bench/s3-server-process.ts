import S3rver from "s3rver";

/**
 * s3rver in a process of its own (forked by export-1m.ts), as a real bucket is elsewhere: its
 * request handling and buffers are not counted in the exporting process's time or memory.
 * Serves bucket `lake` from the directory given as the first argument; reports its port.
 */
const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: process.argv[2]!, configureBuckets: [{ name: "lake", configs: [] }] });
const { port } = await server.run();
process.send!({ port });
process.on("disconnect", () => {
  server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

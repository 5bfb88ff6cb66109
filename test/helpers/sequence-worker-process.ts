// A worker process for the sequence step crash test: the real runtime and worker delivering
// through MAIL_URL; with STALL_AFTER_EMAIL it stalls for good when it is about to record the
// first email step it ran (the email is queued, and delivered by the worker's other slot), so
// the test can kill it between sending an email and recording the step. Only that step stalls:
// the enrollments moved beside it go on.
import type { Enrollment, EnrollmentState, StepRecord } from "../../core/sequences/enrollment.js";
import { EnrollmentRepository } from "../../core/sequences/enrollment-ports.js";
import { onShutdown } from "../../hosts/cli/shutdown.js";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime } from "../../hosts/runtime.js";
import { createWorker } from "../../hosts/worker/create-worker.js";

const logger = createLogger("info");
const runtime = await startRuntime({
  databaseUrl: process.env.DATABASE_URL!,
  logger,
  baseUrl: "http://localhost",
  secretKey: Buffer.from(process.env.SECRET_KEY!, "base64"),
  mailUrl: process.env.MAIL_URL!,
});
if (process.env.STALL_AFTER_EMAIL === "1") {
  const real = runtime.container.get<EnrollmentRepository>(EnrollmentRepository);
  const stalling: EnrollmentRepository = Object.create(real);
  let stalled = false;
  stalling.advance = async (enrollment: Enrollment, next: EnrollmentState, step: StepRecord) => {
    if (step.outcome === "email_queued" && !stalled) {
      stalled = true;
      process.stdout.write(`stalled before recording ${step.emailSendId} of ${enrollment.id}\n`);
      await new Promise<never>(() => undefined);
    }
    return real.advance(enrollment, next, step);
  };
  runtime.container.rebind<EnrollmentRepository>(EnrollmentRepository).toConstantValue(stalling);
}
// Two slots: the engine's job in one, the delivery of the email it queued in the other.
const worker = createWorker(runtime.container, { concurrency: 2, leaseMs: Number(process.env.LEASE_MS ?? 1_000), pollMs: 100 });
onShutdown(logger, async () => {
  await worker.stop();
  await runtime.close();
});
await worker.start();
process.stdout.write(`ready ${worker.owner}\n`);

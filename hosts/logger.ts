import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/**
 * Structured JSON logs on stderr, so stdout carries only what commands print
 * (`listening on ...`, `--json` objects). Tests may pass a destination of their own.
 */
export const createLogger = (level = "info", destination: DestinationStream = pino.destination(2)): Logger =>
  pino({ level, base: { service: "lifecycle" } }, destination);

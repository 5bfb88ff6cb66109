import { pino, type Logger } from "pino";

export type { Logger };

/**
 * Structured JSON logs on stderr, so stdout carries only what commands print
 * (`listening on ...`, `--json` objects).
 */
export const createLogger = (level = "info"): Logger => pino({ level, base: { service: "lifecycle" } }, pino.destination(2));

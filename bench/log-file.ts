import { readFileSync } from "node:fs";
import { pino } from "pino";
import { createLogger, type Logger } from "../hosts/logger.js";

/**
 * The product's logger as a user runs it (`LOG_LEVEL=info`, pino's asynchronous destination),
 * writing to a file rather than to stderr, which carries the benchmarks' progress. Baselines
 * that log use one made the same way.
 */
export const infoLogTo = (file: string): Logger => createLogger("info", pino.destination(file));

/** How many lines a log file holds: proof that the requests were logged, not skipped. */
export const linesIn = (file: string): number => readFileSync(file, "utf8").split("\n").filter(Boolean).length;

/** Waits until the logger's destination has written everything it was given. */
export const flushed = (logger: Logger): Promise<void> => new Promise((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));

/** An operator mistake: printed as one line on stderr, exit code 1, no stack trace. */
export class CliError extends Error {}

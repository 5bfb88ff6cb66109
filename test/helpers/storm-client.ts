/**
 * A hostile client, run as a process of its own so that its load does not slow the measurements
 * of the test that starts it: `concurrency` loops each ask `path` again the moment they are
 * answered (ignoring Retry-After), over the given keys in turn, for `durationMs`. Prints one JSON
 * line: every answer's status and Retry-After, and connections that failed.
 */
const [baseUrl, path, keysJson, concurrency, durationMs] = process.argv.slice(2);
const keys = JSON.parse(keysJson!) as string[];

interface Answer {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly failure?: string;
}

const answers: Answer[] = [];
let storming = true;

async function loop(worker: number): Promise<void> {
  for (let i = 0; storming; i++) {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { authorization: `Bearer ${keys[(worker + i) % keys.length]}` },
        signal: AbortSignal.timeout(30_000),
      });
      await response.arrayBuffer();
      answers.push({ status: response.status, retryAfter: response.headers.get("retry-after") });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      answers.push({ status: 0, retryAfter: null, failure: cause?.code ?? cause?.message ?? String(error) });
    }
  }
}

const loops = Array.from({ length: Number(concurrency) }, (_, worker) => loop(worker));
setTimeout(() => (storming = false), Number(durationMs));
await Promise.all(loops);
process.stdout.write(`${JSON.stringify(answers)}\n`);

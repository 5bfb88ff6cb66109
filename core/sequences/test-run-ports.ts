import { token } from "../shared/token.js";
import type { TestRun } from "./test-run.js";

/** A company's sequence test runs. Every method names the company. */
export interface TestRunRepository {
  insert(run: TestRun): Promise<void>;
  find(companyId: string, sequenceId: string, runId: string): Promise<TestRun | null>;
  /** Saves the run if its steps log still has `expectedSteps` entries and it has not ended: false when another run of its job moved it first. */
  save(run: TestRun, expectedSteps: number): Promise<boolean>;
}
export const TestRunRepository = token<TestRunRepository>("lifecycle.TestRunRepository");

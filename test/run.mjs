// Runs the compiled ava suite and ends with the one line CI reads: "N passed, N failed, N skipped".
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ava = fileURLToPath(new URL("../node_modules/ava/entrypoints/cli.mjs", import.meta.url));
const child = spawn(process.execPath, [ava, "--tap", ...process.argv.slice(2)], { stdio: ["ignore", "pipe", "inherit"] });

const counts = { passed: 0, failed: 0, skipped: 0 };
const lines = createInterface({ input: child.stdout });
lines.on("line", (line) => {
  process.stdout.write(`${line}\n`);
  if (/^ok \d+/.test(line)) {
    if (/# SKIP/i.test(line)) counts.skipped += 1;
    else counts.passed += 1;
  } else if (/^not ok \d+/.test(line)) {
    if (/# TODO/i.test(line)) counts.skipped += 1;
    else counts.failed += 1;
  }
});

child.on("close", (code) => {
  process.stdout.write(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
  process.exit(code === 0 && counts.failed === 0 && counts.passed > 0 ? 0 : code || 1);
});

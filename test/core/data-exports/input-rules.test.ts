import test from "ava";
import { checkBucket, checkDatasets, checkEndpoint, checkName, checkRegion, checkStartFrom } from "../../../core/data-exports/input-rules.js";
import { eventFileKey, manifestKey, snapshotFileKey, connectionTestKey } from "../../../core/data-exports/layout.js";
import { normalisePathPrefix } from "../../../core/data-exports/path-prefix.js";
import { maskAccessKeyId } from "../../../core/data-exports/view.js";
import type { Result } from "../../../core/shared/result.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const DAY = 24 * 3_600_000;

const value = <A>(result: Result<A>): A => {
  if (result._tag === "Left") throw new Error(result.left.message);
  return result.right;
};
const refusal = <A>(result: Result<A>): { message: string; code?: string; tag: string } => {
  if (result._tag === "Right") throw new Error(`expected a refusal, got ${JSON.stringify(result.right)}`);
  return { message: result.left.message, tag: result.left._tag, ...(result.left.code ? { code: result.left.code } : {}) };
};

test("pathPrefix: slashes trimmed, allowed characters kept, empty allowed", (t) => {
  t.is(value(normalisePathPrefix("/exports/prod/")), "exports/prod");
  t.is(value(normalisePathPrefix("///a/b///")), "a/b");
  t.is(value(normalisePathPrefix(" /x/ ")), "x");
  t.is(value(normalisePathPrefix(null)), "");
  t.is(value(normalisePathPrefix(undefined)), "");
  t.is(value(normalisePathPrefix("/")), "");
  t.is(value(normalisePathPrefix("Lake_1/!.*'()=-/v2.0")), "Lake_1/!.*'()=-/v2.0");
  t.is(value(normalisePathPrefix("a/.hidden/..b/c..")), "a/.hidden/..b/c..");
});

test("pathPrefix: other characters, '..' segments and empty segments are refused with invalid_input", (t) => {
  for (const bad of ["a b", "a?b", "a#b", "a\\b", "é", "a%2Fb", "a&b", "a+b", "a:b", "a,b", "a@b"]) {
    t.like(refusal(normalisePathPrefix(bad)), { tag: "BadRequest", code: "invalid_input" }, bad);
  }
  for (const bad of ["..", "a/../b", "../a", "a/..", "/../"]) {
    t.deepEqual(refusal(normalisePathPrefix(bad)), { tag: "BadRequest", code: "invalid_input", message: "pathPrefix must not contain '..' segments" }, bad);
  }
  t.regex(refusal(normalisePathPrefix("a//b")).message, /empty segments/);
  t.regex(refusal(normalisePathPrefix("a".repeat(513))).message, /at most 512/);
});

test("bucket: a name, not a URL, by the provider's rules", (t) => {
  t.is(value(checkBucket("s3", " my-bucket.v2 ")), "my-bucket.v2");
  t.is(value(checkBucket("gcs", "my_bucket")), "my_bucket");
  t.regex(refusal(checkBucket("s3", "https://s3.amazonaws.com/bucket")).message, /not a URL/);
  t.regex(refusal(checkBucket("s3", "bucket/path")).message, /not a URL/);
  t.regex(refusal(checkBucket("s3", "My_Bucket")).message, /lower-case/);
  t.regex(refusal(checkBucket("s3", "ab")).message, /3 to 63/);
  t.regex(refusal(checkBucket("s3", "")).message, /bucket is required/);
});

test("region: required for s3 without an endpoint; auto for gcs and custom endpoints", (t) => {
  t.regex(refusal(checkRegion("s3", undefined, null)).message, /region is required for provider s3/);
  t.regex(refusal(checkRegion("s3", null, null)).message, /region is required/);
  t.regex(refusal(checkRegion("s3", "  ", null)).message, /region is required/);
  t.is(value(checkRegion("s3", "eu-west-3", null)), "eu-west-3");
  t.is(value(checkRegion("s3", undefined, "https://s3.example.com")), "auto");
  t.is(value(checkRegion("gcs", undefined, null)), "auto");
  t.regex(refusal(checkRegion("s3", "EU West", null)).message, /region must be/);
});

test("endpoint: an HTTPS origin, never with gcs, private addresses only when allowed", (t) => {
  t.is(value(checkEndpoint("s3", "https://s3.example.com/", false)), "https://s3.example.com");
  t.is(value(checkEndpoint("s3", "https://S3.Example.com:8443", false)), "https://s3.example.com:8443");
  t.is(value(checkEndpoint("s3", null, false)), null);
  t.is(value(checkEndpoint("s3", "", false)), null);
  t.regex(refusal(checkEndpoint("gcs", "https://storage.example.com", false)).message, /not allowed with provider gcs/);
  t.like(refusal(checkEndpoint("s3", "http://s3.example.com", false)), { code: "invalid_input" });
  t.like(refusal(checkEndpoint("s3", "https://s3.example.com/bucket", false)), { code: "invalid_input" });
  t.like(refusal(checkEndpoint("s3", "https://127.0.0.1", false)), { code: "invalid_input" });
  t.like(refusal(checkEndpoint("s3", "https://169.254.169.254", false)), { code: "invalid_input" });
  t.is(value(checkEndpoint("s3", "http://127.0.0.1:9000", true)), "http://127.0.0.1:9000");
});

test("name, datasets and startFrom", (t) => {
  t.is(value(checkName("  Lake  ")), "Lake");
  t.is(value(checkName("x".repeat(255))), "x".repeat(255));
  t.regex(refusal(checkName("x".repeat(256))).message, /at most 255/);
  t.regex(refusal(checkName("   ")).message, /name is required/);
  t.deepEqual(value(checkDatasets(undefined)), ["email_events", "sms_events", "custom_events", "subscribers"]);
  t.deepEqual(value(checkDatasets(["subscribers", "email_events", "subscribers"])), ["email_events", "subscribers"]);
  t.regex(refusal(checkDatasets([])).message, /at least one/);
  t.deepEqual(value(checkStartFrom(undefined, NOW)), NOW);
  t.deepEqual(value(checkStartFrom(null, NOW)), NOW);
  const thirtyDays = new Date(NOW.getTime() - 30 * DAY);
  t.deepEqual(value(checkStartFrom(thirtyDays, NOW)), thirtyDays);
  t.like(refusal(checkStartFrom(new Date(thirtyDays.getTime() - 1), NOW)), { code: "invalid_input", message: "startFrom must be at most 30 days ago" });
});

test("layout: keys under the prefix, deterministic names", (t) => {
  t.is(connectionTestKey(""), "_service/connection-test.json");
  t.is(connectionTestKey("a/b"), "a/b/_service/connection-test.json");
  t.is(
    eventFileKey("lake", "email_events", "2026-11-22T10:00:00.123Z", "eev_01ABC"),
    "lake/email_events/date=2026-11-22/20261122T100000123Z_eev_01ABC.jsonl.gz",
  );
  t.is(eventFileKey("", "custom_events", "2026-11-22T10:00:00.123Z", "evt/1"), "custom_events/date=2026-11-22/20261122T100000123Z_evt-1.jsonl.gz");
  t.is(snapshotFileKey("lake", "2026-11-22", 3), "lake/subscribers/date=2026-11-22/part-00003.jsonl.gz");
  t.is(manifestKey("lake", "dxr_1"), "lake/_manifests/dxr_1.json");
});

test("access key IDs are masked", (t) => {
  t.is(maskAccessKeyId("AKIAIOSFODNN7EXAMPLE"), "AKIA****MPLE");
  t.is(maskAccessKeyId("S3RVER"), "********");
  t.is(maskAccessKeyId("GOOG1EXAMPLE"), "GOOG****MPLE");
});

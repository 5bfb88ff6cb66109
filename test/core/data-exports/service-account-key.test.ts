import { createHash, createPublicKey } from "node:crypto";
import test from "ava";
import { NodePrivateKeyReader } from "../../../adapters/crypto/node-private-key-reader.js";
import { checkServiceAccountKey } from "../../../core/data-exports/service-account-key.js";
import { serviceAccountKeyFile } from "../../helpers/fake-gcs.js";

const reader = new NodePrivateKeyReader();
const { file } = serviceAccountKeyFile();

const refusal = (raw: unknown): string => {
  const checked = checkServiceAccountKey(raw, reader);
  if (checked._tag === "Right") throw new Error("accepted");
  return checked.left.message;
};

test("a key file from the console, as an object or as its text, gives the account, the key and the public key's fingerprint", (t) => {
  const spki = createPublicKey(file["private_key"]!).export({ type: "spki", format: "der" });
  const fingerprint = `SHA256:${createHash("sha256").update(spki).digest("base64").replace(/=+$/, "")}`;
  for (const raw of [file, JSON.stringify(file, null, 2)]) {
    const checked = checkServiceAccountKey(raw, reader);
    t.deepEqual(checked, {
      _tag: "Right",
      right: {
        key: { clientEmail: file["client_email"], privateKey: file["private_key"], privateKeyId: file["private_key_id"], projectId: "acme-data" },
        fingerprint,
      },
    });
  }
  // Keys made before universe_domain existed have none.
  const { universe_domain: _, ...older } = file;
  t.is(checkServiceAccountKey(older, reader)._tag, "Right");
});

test("anything but a service account key with Google's endpoints is refused with the field at fault", (t) => {
  t.is(refusal("not json"), "serviceAccountKey must be the content of a service account's JSON key file (an object, or the file's text as a string)");
  t.is(refusal("[1,2]"), "serviceAccountKey must be the content of a service account's JSON key file (an object, or the file's text as a string)");
  t.is(
    refusal({ ...file, type: "authorized_user" }),
    'serviceAccountKey.type must be "service_account" (a service account\'s key file from the Google Cloud console)',
  );
  t.is(
    refusal({ ...file, type: "external_account" }),
    'serviceAccountKey.type must be "service_account" (a service account\'s key file from the Google Cloud console)',
  );
  t.is(refusal({ ...file, client_email: "not an address" }), "serviceAccountKey.client_email must be the service account's email address");
  t.is(
    refusal({ ...file, private_key: "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n" }),
    "serviceAccountKey.private_key must be a PEM private key (-----BEGIN PRIVATE KEY----- ...)",
  );
  t.is(refusal({ ...file, private_key: 42 }), "serviceAccountKey.private_key must be a PEM private key (-----BEGIN PRIVATE KEY----- ...)");
  t.is(
    refusal({ ...file, private_key: createPublicKey(file["private_key"]!).export({ type: "spki", format: "pem" }).toString() }),
    "serviceAccountKey.private_key must be a PEM private key (-----BEGIN PRIVATE KEY----- ...)",
  );
  t.is(refusal("x".repeat(20_000)), "serviceAccountKey must be at most 16384 characters");
  t.is(refusal({ ...file, padding: "x".repeat(20_000) }), "serviceAccountKey must be at most 16384 characters as JSON");
});

test("a crafted key cannot name an address for the server to call: token_uri exactly Google's, every other URL on Google's hosts", (t) => {
  const tokenMessage = "serviceAccountKey.token_uri must be https://oauth2.googleapis.com/token";
  for (const tokenUri of [
    "http://169.254.169.254/computeMetadata/v1/token",
    "https://oauth2.googleapis.com.evil.example/token",
    "https://127.0.0.1/token",
    "http://oauth2.googleapis.com/token",
    "https://oauth2.googleapis.com/token?x=1",
  ]) {
    t.is(refusal({ ...file, token_uri: tokenUri }), tokenMessage, tokenUri);
  }
  const { token_uri: _, ...withoutTokenUri } = file;
  t.is(refusal(withoutTokenUri), tokenMessage);
  const elsewhere = "must be a URL of Google (accounts.google.com, oauth2.googleapis.com, www.googleapis.com)";
  t.is(refusal({ ...file, auth_uri: "https://10.0.0.7/auth" }), `serviceAccountKey.auth_uri ${elsewhere}`);
  t.is(refusal({ ...file, client_x509_cert_url: "https://www.googleapis.com:8443/robot" }), `serviceAccountKey.client_x509_cert_url ${elsewhere}`);
  t.is(
    refusal({ ...file, auth_provider_x509_cert_url: "http://www.googleapis.com/oauth2/v1/certs" }),
    `serviceAccountKey.auth_provider_x509_cert_url ${elsewhere}`,
  );
  t.is(refusal({ ...file, credential_source: { url: "http://metadata.internal/token" } }), `serviceAccountKey.credential_source.url ${elsewhere}`);
  t.is(refusal({ ...file, service_account_impersonation_url: "file:///etc/passwd" }), `serviceAccountKey.service_account_impersonation_url ${elsewhere}`);
  t.is(refusal({ ...file, universe_domain: "evil.example" }), 'serviceAccountKey.universe_domain must be "googleapis.com"');
});

import type { Command } from "commander";
import * as t from "io-ts";
import { effectiveScopes } from "../../core/access/permissions.js";
import { CreateMemberApiKey, CreateMemberApiKeyCommand } from "../../core/api-keys/create-member-api-key.js";
import type { ApiKeyRecord } from "../../core/api-keys/model.js";
import { OPERATOR } from "../../core/shared/actor.js";
import { decode } from "../../core/shared/codecs.js";
import { isLeft, type Result } from "../../core/shared/result.js";
import { DomainName } from "../../core/company/commands.js";
import { OperatorVerifyDomain } from "../../core/company/operator-verify-domain.js";
import { SetUpOperatorSender } from "../../core/company/set-up-operator-sender.js";
import { ResumeSending } from "../../core/sending-health/resume-sending.js";
import { Email, TrimmedNonEmpty } from "../../core/shared/codecs.js";
import { CreateCompanyCommand } from "../../core/tenancy/commands.js";
import { CreateCompany } from "../../core/tenancy/create-company.js";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { startRuntime, type Runtime } from "../runtime.js";
import { CliError } from "./cli-error.js";
import { runtimeOptions } from "./runtime-options.js";

async function withRuntime<T>(database: string | undefined, work: (runtime: Runtime) => Promise<T>): Promise<T> {
  const config = loadConfig(process.env, { databaseUrl: database });
  const runtime = await startRuntime({ ...runtimeOptions(config, createLogger(config.logLevel)), preloadRenderer: false });
  try {
    return await work(runtime);
  } finally {
    await runtime.close();
  }
}

const orFail = <A>(result: Result<A>): A => {
  if (isLeft(result)) {
    const detail =
      result.left._tag === "Invalid" && result.left.errors?.length ? result.left.errors.map((e) => `${e.path} ${e.message}`).join("; ") : result.left.message;
    throw new CliError(detail);
  }
  return result.right;
};

const keyOutput = (record: ApiKeyRecord, plain: string) => ({
  id: record.key.id,
  key: plain,
  prefix: record.key.prefix,
  scopes: effectiveScopes(record.key.selectedScopes, record.member.role),
});

const memberOutput = (record: ApiKeyRecord) => ({ id: record.member.id, email: record.member.email, role: record.member.role });

const print = (json: boolean, object: unknown, lines: string[]) => process.stdout.write(json ? `${JSON.stringify(object)}\n` : `${lines.join("\n")}\n`);

interface CreateCompanyFlags {
  name: string;
  ownerEmail: string;
  sender?: string;
  json?: boolean;
  database?: string;
}

interface VerifyDomainFlags {
  company: string;
  domain: string;
  database?: string;
}

interface ResumeSendingFlags {
  company: string;
  json?: boolean;
  database?: string;
}

interface CreateApiKeyFlags {
  company: string;
  role?: string;
  email?: string;
  scopes?: string;
  name?: string;
  json?: boolean;
  database?: string;
}

/** `lifecycle admin ...`: operator bootstrap of companies and keys (shared/CONTRACTS.md). */
export function registerAdminCommands(program: Command): void {
  const admin = program.command("admin").description("operator tasks: bootstrap companies and API keys");

  admin
    .command("create-company")
    .description("create a company, its owner and an owner API key with full access")
    .requiredOption("--name <name>", "company name")
    .requiredOption("--owner-email <email>", "email of the owner team member")
    .option("--sender <email>", "default sender address (its domain becomes an operator-verified sending domain)")
    .option("--json", "print one JSON object")
    .option("--database <url>", "database URL (overrides DATABASE_URL)")
    .action(async (flags: CreateCompanyFlags) => {
      const input = orFail(decode(CreateCompanyCommand, { name: flags.name, ownerEmail: flags.ownerEmail }));
      // Checked before anything is created, so a bad --sender leaves no company behind.
      const sender = flags.sender === undefined ? undefined : orFail(decode(t.type({ sender: Email }), { sender: flags.sender })).sender;
      const { created, senderProfile } = await withRuntime(flags.database, async ({ container }) => {
        const created = orFail(await container.get(CreateCompany).execute(OPERATOR, input));
        const profile = sender === undefined ? null : orFail(await container.get(SetUpOperatorSender).execute(OPERATOR, created.company.id, sender));
        return { created, senderProfile: profile ? { id: profile.id, email: profile.email } : null };
      });
      const output = {
        company: { id: created.company.id, name: created.company.name },
        owner: { id: created.owner.id, email: created.owner.email, role: created.owner.role },
        apiKey: keyOutput(created.apiKey, created.plainKey),
        senderProfile,
      };
      print(Boolean(flags.json), output, [
        `company ${output.company.id} (${output.company.name})`,
        `owner   ${output.owner.id} ${output.owner.email}`,
        `api key ${output.apiKey.id}: ${output.apiKey.key}`,
        ...(senderProfile ? [`sender  ${senderProfile.id} ${senderProfile.email} (domain verified by the operator)`] : []),
        "The key is shown once; keep it somewhere safe.",
      ]);
    });

  admin
    .command("verify-domain")
    .description("mark a company's sending domain verified by the operator (created when missing), without a DNS check")
    .requiredOption("--company <id>", "company ID")
    .requiredOption("--domain <domain>", "sending domain, e.g. mail.example.com")
    .option("--database <url>", "database URL (overrides DATABASE_URL)")
    .action(async (flags: VerifyDomainFlags) => {
      const { company: companyId, domain: name } = orFail(
        decode(t.type({ company: TrimmedNonEmpty, domain: DomainName }), { company: flags.company, domain: flags.domain }),
      );
      const domain = await withRuntime(flags.database, async ({ container }) =>
        orFail(await container.get(OperatorVerifyDomain).execute(OPERATOR, companyId, name)),
      );
      process.stdout.write(`sending domain ${domain.id} ${domain.domain} verified by the operator\n`);
    });

  admin
    .command("create-api-key")
    .description("create an API key acting as a team member of a role (the member is created when --email is new)")
    .requiredOption("--company <id>", "company ID")
    .option("--role <role>", "owner, admin or marketer (default owner)")
    .option("--email <email>", "team member email")
    .option("--scopes <list>", "comma-separated scopes (default: every scope the role allows)")
    .option("--name <name>", "key name")
    .option("--json", "print one JSON object")
    .option("--database <url>", "database URL (overrides DATABASE_URL)")
    .action(async (flags: CreateApiKeyFlags) => {
      const input = orFail(
        decode(CreateMemberApiKeyCommand, {
          companyId: flags.company,
          role: flags.role,
          email: flags.email,
          scopes: flags.scopes
            ?.split(",")
            .map((scope) => scope.trim())
            .filter(Boolean),
          name: flags.name,
        }),
      );
      const created = await withRuntime(flags.database, async ({ container }) => orFail(await container.get(CreateMemberApiKey).execute(OPERATOR, input)));
      const output = { apiKey: keyOutput(created.apiKey, created.plainKey), member: memberOutput(created.apiKey) };
      print(Boolean(flags.json), output, [
        `api key ${output.apiKey.id}: ${output.apiKey.key}`,
        `acting as ${output.member.email} (${output.member.role}) with ${output.apiKey.scopes.length} scopes`,
        "The key is shown once; keep it somewhere safe.",
      ]);
    });

  admin
    .command("resume-sending")
    .description(
      "resume a company's sending after any pause or suspension (complaint pauses only resume this way); held sends are delivered and both rates start over",
    )
    .requiredOption("--company <id>", "company ID")
    .option("--json", "print one JSON object")
    .option("--database <url>", "database URL (overrides DATABASE_URL)")
    .action(async (flags: ResumeSendingFlags) => {
      const { company: companyId } = orFail(decode(t.type({ company: TrimmedNonEmpty }), { company: flags.company }));
      const resumed = await withRuntime(flags.database, async ({ container }) =>
        orFail(await container.get(ResumeSending).operatorExecute(OPERATOR, companyId)),
      );
      print(Boolean(flags.json), resumed, [resumed.message]);
    });
}

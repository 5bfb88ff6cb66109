/** `DATABASE_URL` forms: `sqlite:<path>`, `sqlite::memory:`, `postgres://...` (or `postgresql://`). */
export type DatabaseTarget = { readonly dialect: "sqlite"; readonly filename: string } | { readonly dialect: "postgres"; readonly connectionString: string };

export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (url.startsWith("sqlite:")) {
    const filename = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (!filename) throw new Error(`DATABASE_URL ${url} names no SQLite file`);
    return { dialect: "sqlite", filename };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { dialect: "postgres", connectionString: url };
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${url.split(":")[0]}:...)`);
}

/** The URL without its password, for logs and messages. */
export const redactDatabaseUrl = (url: string): string => url.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@");

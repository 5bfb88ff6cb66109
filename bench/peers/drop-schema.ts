import knexFactory from "knex";

/** Drops a peer's schema (and all it holds) once its benchmark is over. */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const admin = knexFactory({ client: "pg", connection: databaseUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw("drop schema if exists ?? cascade", [schema]);
  } finally {
    await admin.destroy();
  }
}

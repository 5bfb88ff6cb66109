# The lifecycle server in a container: SQLite data (and the generated secret key) in the /data
# volume, or Postgres through DATABASE_URL (see docker-compose.yml).
# node:24-slim: an LTS line (Node 20 reached end of life in April 2026); the code runs on 20.19+.

# Build: compile the TypeScript, better-sqlite3's native module and the SQLite statement time
# limit, then drop the dev dependencies.
FROM node:24-slim AS build
# better-sqlite3 downloads a prebuilt binary when one exists, and compiles with these otherwise.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts wait for the sources (prepare builds them); only the native module needs its install step now.
RUN npm ci --ignore-scripts && npm rebuild better-sqlite3
COPY tsconfig.json ./
COPY core ./core
COPY adapters ./adapters
COPY hosts ./hosts
COPY fixtures ./fixtures
# The SQLite statement time limit (adapters/knex/native), which the install step builds.
RUN npm run install && test -f adapters/knex/native/build/Release/statement_timeout.node
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

# Run: the compiled server and its production dependencies, as the unprivileged `node` user.
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/lifecycle.sqlite \
    MAIL_URL=file:/data/outbox
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/adapters/knex/native/build/Release/statement_timeout.node ./adapters/knex/native/build/Release/
# ./data (where SECRET_KEY is generated when unset) is the volume too.
RUN mkdir /data && chown node:node /data && ln -s /data /app/data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Any command: `docker run IMAGE doctor`, `docker run IMAGE admin create-company ...`.
ENTRYPOINT ["node", "dist/hosts/cli/main.js"]
CMD ["serve"]

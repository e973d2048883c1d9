/**
 * Writes the folder to contribute to the benchmark (its ADDING_SERVERS.md, "Scenario 2: Adding a New
 * Technology"): `mcplite-server/` with our server (`ours.ts`, `tools.ts` importing `@mcplite/sdk`
 * instead of this checkout), a `main.ts` running `WEB_CONCURRENCY` workers on port 8097 as their Node
 * server does, a `package.json`, a `Dockerfile` (Node 22) and a `Dockerfile.bun` (Scenario 1: the same
 * code on another runtime). Prints the `docker-compose.yml` services and the lines their three scripts
 * take. The sources are this folder's, so the contributed server is the measured one.
 *
 *   bun bench/workload/contrib.ts <their checkout>     writes <their checkout>/mcplite-server/
 *
 * @module
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import process from "node:process";

const target = process.argv[2];
if (target === undefined) throw new Error("usage: contrib.ts <checkout of benchmark-mcp-servers-v2>");
const dir = `${target.replace(/\/$/, "")}/mcplite-server`;
const source = (file: string) =>
  readFileSync(new URL(`./${file}`, import.meta.url), "utf8").replaceAll('"../../mod.ts"', '"@mcplite/sdk"');
const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
const pinned = (name: string) => packageJson.dependencies?.[name] ?? packageJson.devDependencies?.[name];

const MAIN = `// The benchmark's entry: WEB_CONCURRENCY workers (default: one per CPU) sharing port 8097, as its
// Node server runs (node:cluster; on Bun its workers share the port through SO_REUSEPORT on Linux).
import cluster from "node:cluster";
import { availableParallelism } from "node:os";
import process from "node:process";
import { start } from "./ours.ts";

if (cluster.isPrimary) {
  const workers = Number(process.env.WEB_CONCURRENCY ?? availableParallelism());
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("exit", () => cluster.fork());
} else {
  await start(Number(process.env.PORT ?? 8097), "0.0.0.0");
}
`;

const files: Record<string, string> = {
  "main.ts": MAIN,
  "ours.ts": source("ours.ts"),
  "tools.ts": source("tools.ts"),
  "package.json": JSON.stringify(
    {
      name: "mcp-mcplite-server",
      version: "1.0.0",
      type: "module",
      dependencies: { "@mcplite/sdk": packageJson.version, ioredis: pinned("ioredis"), valibot: pinned("valibot") },
    },
    null,
    2,
  ) + "\n",
  // Node 22.18+ runs TypeScript files as they are (type stripping).
  "Dockerfile": `FROM node:22-slim
WORKDIR /app
COPY package.json .
RUN npm install --omit=dev
COPY *.ts ./
EXPOSE 8097
CMD ["node", "main.ts"]
`,
  "Dockerfile.bun": `FROM oven/bun:1-alpine
WORKDIR /app
COPY package.json .
RUN bun install --production
COPY *.ts ./
EXPOSE 8097
CMD ["bun", "main.ts"]
`,
};
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(`${dir}/${name}`, text);

const service = (name: string, port: number, dockerfile: string) =>
  `  ${name}:
    build:
      context: ./mcplite-server
      dockerfile: ${dockerfile}
    container_name: mcp-${name}
    ports:
      - "${port}:8097"
    environment:
      - SERVER_TYPE=${name}
      - REDIS_URL=redis://mcp-redis:6379
      - API_SERVICE_URL=http://mcp-api-service:8100
    networks:
      - mcp-net
    depends_on:
      mcp-redis:
        condition: service_healthy
      mcp-api-service:
        condition: service_healthy
    deploy:
      resources:
        limits:
          cpus: '2'
          memory: 2G
    healthcheck:
      test: ["CMD-SHELL", "wget -qO- http://localhost:8097/health || curl -f http://localhost:8097/health"]
      interval: 5s
      timeout: 3s
      retries: 5`;
console.log(`wrote ${Object.keys(files).map((f) => `${dir}/${f}`).join(", ")}

docker-compose.yml, under services:
${service("mcplite", 8097, "Dockerfile")}
${service("mcplite-bun", 8098, "Dockerfile.bun")}

benchmark/run_benchmark.sh, SERVERS:   [mcplite]="mcp-mcplite:8097"  [mcplite-bun]="mcp-mcplite-bun:8098"
benchmark/consolidate.py, CANONICAL_ORDER:   'mcplite', 'mcplite-bun'
test_mcp_servers.py, SERVERS:   "mcplite": "http://localhost:8097/mcp", "mcplite-bun": "http://localhost:8098/mcp"`);

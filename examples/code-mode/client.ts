/**
 * What a model does with the server of examples/code-mode/server.ts, done by hand: it lists the tools (the two of code
 * mode), asks `discover_tools` for the declarations of the three it will call, then runs one program through
 * `execute_code` that calls them (the weather of three cities, a sum, an echo) and answers only what it keeps: one
 * round trip for five calls. Takes the server's URL (default http://127.0.0.1:8000).
 */
import process from "node:process";
import { createClient } from "../../src/client/mod.ts";

const client = createClient(`${process.argv[2] ?? "http://127.0.0.1:8000"}/mcp`);

console.log("tools:", (await client.listTools()).map((tool) => tool.name).join(", "));

const names = ["everything.get-structured-content", "everything.get-sum", "everything.echo"];
const found = await client.call("discover_tools", { names }, { wait: false });
// Its text is the TypeScript the model writes its program against.
if (found.kind === "complete") {
  console.log(found.result.content.map((block) => "text" in block ? block.text : "").join(""));
}

// The program a model writes against those declarations: TypeScript, run in the server's sandbox.
const program = `
const cities = ["New York", "Chicago", "Los Angeles"] as const;
const weather = await Promise.all(
  cities.map((location) => tools["everything.get-structured-content"]({ location })),
);
const temperatures = weather.map((w: { temperature: number }) => w.temperature);
const warmest = cities[temperatures.indexOf(Math.max(...temperatures))];
const sum: string = await tools["everything.get-sum"]({ a: Math.max(...temperatures), b: -Math.min(...temperatures) });
const spread = Number(/is (-?[\\d.]+)/.exec(sum)![1]);
const echo: string = await tools["everything.echo"]({ message: \`warmest: \${warmest}\` });
console.log(\`read the weather of \${cities.length} cities\`);
return { warmest, spread, echo };
`;
const { result, logs } = await client.call("execute_code", { code: program }) as { result: unknown; logs: string[] };
console.log("logs:", JSON.stringify(logs));
console.log("result:", JSON.stringify(result));
await client.close();

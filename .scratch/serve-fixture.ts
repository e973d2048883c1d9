import { serve } from "../mod.ts";
import { cliServer } from "../tests/cli/cli-helpers.ts";
const l = await serve(cliServer(), { port: 8766 });
console.log(l.url);

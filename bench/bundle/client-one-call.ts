// A client that makes one call, as a user writes it: no skills, no streams, no OAuth.
import { createClient } from "../../src/client/mod.ts";

const client = createClient("http://localhost:8000");
console.log(await client.call("add", { a: 1, b: 2 }));

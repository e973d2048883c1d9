import { ours } from "../servers/ours.ts";
import { modern, ADD_PARAMS } from "../requests.ts";
const r = await ours.fetch(modern("tools/call", ADD_PARAMS)());
console.log(r.status, [...r.headers], r.body?.constructor.name, await r.text());

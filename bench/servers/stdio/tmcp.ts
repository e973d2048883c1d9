/**
 * tmcp 1.20 + `@tmcp/adapter-valibot` + `@tmcp/transport-stdio` 0.5, with the `add` tool.
 *
 * @module
 */
import { StdioTransport } from "@tmcp/transport-stdio";
import { tmcpServer } from "../tmcp.ts";

new StdioTransport(tmcpServer()).listen();

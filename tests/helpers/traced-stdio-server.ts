/**
 * A stdio server traced with `otel()` in a process of its own, as an application runs one: the official
 * SDK registered, its spans exported over OTLP/HTTP (JSON) to `OTLP_TRACES_URL`, where the test that
 * launched it receives them.
 */
import process from "node:process";
import { propagation, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import * as v from "valibot";
import { createServer, defineTool } from "../../mod.ts";
import { otel } from "../../src/otel/mod.ts";
import { serveStdio } from "../../src/stdio/mod.ts";

const exporter = new OTLPTraceExporter({ url: process.env.OTLP_TRACES_URL });
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
trace.setGlobalTracerProvider(
  new TracerProvider({
    resource: resourceFromAttributes({ "service.name": "stdio-child" }),
    spanProcessors: [new SimpleSpanProcessor({ exporter })],
  }),
);

const add = defineTool("add").describe("Adds two numbers").input(v.object({ a: v.number(), b: v.number() }))
  .handle(({ a, b }) => a + b);
serveStdio(createServer({ name: "traced-stdio", version: "1.0.0" }).tool(add).use(otel()));

/**
 * The `--help` text.
 *
 * @module
 */

/** What `mcplite --help` prints. */
export const HELP: string = `mcplite: inspect and call MCP-lite, MCP and Webtools servers, or start a new one

Usage:
  mcplite inspect <url>              server info, tools with schemas, resources, prompts
  mcplite list <url>                 the tools, one per line
  mcplite call <url> <tool> [--args '{"key": "value"}'] [--arg key=value]…
  mcplite app <url> <tool> [--arg key=value]… [--port <n>]   preview the tool's MCP Apps view: a page
                                     on 127.0.0.1 calls the tool and renders its ui:// view (Ctrl-C stops)
  mcplite skills <url>               the server's Agent Skills (SEP-2640)
  mcplite skills <url> get <name> [--out <dir>]   fetch one, verified; print SKILL.md or write the files
  mcplite types <url> [--out <file>] [--check]   a TypeScript module of the tools' input and output
                                     types, for createClient<Remote>(url); --check: exit 1 naming
                                     the tools that changed when the file no longer matches
  mcplite events tail <url> [event…] [--arg key=value]… [--port <n>]   watch the server's MCP Events:
                                     a receiver on http://127.0.0.1:<port>/ (default: a free port)
                                     subscribes to the events named (default: every one listed) with
                                     --args/--arg, prints each delivery as a JSON line, unsubscribes on
                                     Ctrl-C; the server must allow that callback (a loopback URL is
                                     refused unless its events.allowCallbacks lists the origin);
                                     --mode push: one events/stream per event, no receiver; --mode
                                     poll: events/poll from each answer's cursor (SEP-3415's modes)
  mcplite check <url | tools.json> [--json] [--fail-on error|warning|info] [--max-tokens <n>] [--cases <file>]
        [--call <tool>[=<json>]]… [--ignore <rule>[:<tool>]]… [--encoding o200k_base|cl100k_base]
                                     the tool list as a model meets it, offline: the tools it would
                                     confuse, what the list costs in tokens per provider format, a
                                     lint of names and schemas, selection cases ranked by tool search;
                                     exits 1 when a finding is as bad as --fail-on (default error);
                                     a .json file: a tool list saved from any server (tools/list)
  mcplite <command> [<tool>] [options] -- <server command> <args…>   (a stdio server)
  mcplite init [dir] [--runtime deno|bun|node|workers]   a new project in dir (missing or empty;
                                     default .): a tool, a way to start it and its own test;
                                     the runtime defaults to the one running mcplite
        [--sdk <tarball|checkout|registry>]   where the project gets @mcplite/sdk: an npm pack
                                     tarball or a checkout (file:), or the registries; by
                                     default where this mcplite came from
  mcplite dev <server module> [--port <n>] [--host <address>]   serve the module's server
                                     (default PORT or 8000, on 127.0.0.1 unless --host says),
                                     restart it on each edit of it or a file it imports, and
                                     call its tools from the dev page at /_dev (Ctrl-C stops)
  mcplite worker <server module> [--concurrency <n>] [--drain-ms <ms>]   run the queued jobs of the
                                     module's server (createServer({ queue })) with no listener;
                                     SIGTERM or SIGINT drains (so does the end of the shell npx ran
                                     it in): running jobs get --drain-ms (default 30000) to finish,
                                     then go back to the queue
  mcplite jobs list <server module> [--state <state>]… [--tool <name>]… [--limit <n>] [--json]
                                     the latest queued jobs of the module's server: state, attempt,
                                     tool, call, why failed; --tool keeps those tools' (event:* for
                                     an event's deliveries)
  mcplite jobs show <server module> <job id> [--json]   one job: its state and attempt in the queue,
                                     its result in the store, its last error, its steps (its log)
  mcplite jobs cancel <server module> <job id>   cancels a job as its caller would: out of the
                                     queue, its entry cancelled, its run stopped; exits 1 if it ended
  mcplite jobs retry <server module> [--from <step>] <job id>   runs a failed job again as a new run,
                                     its completed steps kept (those before --from); as Bull Board's Retry
  mcplite server-json <server module> [--name <io.github.you/server>] [--remote <url>]…
        [--dir <project>] [--out <file>] [--no-packages] [--check | --workflow]
                                     the MCP Registry's server.json from the module's server and
                                     package.json/jsr.json/deno.json; --check exits 1 when the file has
                                     drifted or the npm package's mcpName (as published too) is not the
                                     server's name; --workflow also writes a GitHub Actions workflow that
                                     publishes it with mcp-publisher (GitHub OIDC)

The target is a URL: a bare origin is probed for MCP-lite (/mcp-lite/v1), MCP (/mcp, then /)
and Webtools (/webtools); a URL with one of those paths is used as it is. A ws:// or wss:// URL
speaks MCP-lite over a WebSocket (a bare origin: /mcp-lite/v1/ws; -H "Authorization: Bearer <token>"
travels as its subprotocol).

Options:
  --args <json>         the tool's arguments as one JSON object
  --arg <key=value>     one argument, read as its input-schema type says (repeatable;
                        numbers, booleans, null, JSON arrays and objects; strings as typed)
  --resource <key=path> a file for a tool that asks for a resource (request-for-more-resource):
                        sent as text when it is UTF-8, else as a base64 blob (repeatable)
  --json                machine-readable output: stdout carries only the JSON result, or the error
                        as {"error": {"code", "message", …}, "exitCode": n}
  --out <dir>           skills get: write the skill's files below this directory (created if missing);
                        types: the file to write (default: stdout)
  --check               types: compare --out with the server's tools instead of writing it
  -H, --header <h>      an HTTP header for every request, "Name: value" (repeatable)
  --login               authorize with OAuth when the server asks: open the URL printed on stderr;
                        tokens are kept in $MCPLITE_TOKENS or ~/.config/mcplite/tokens.json (0600)
  --dpop                with --login: DPoP-bound tokens (RFC 9449), useless without this machine's key,
                        which is kept in the token file
  --client-id <id>      a pre-registered OAuth client id (default: dynamic registration)
  --tokens <file>       where --login keeps tokens
  --redirect-port <n>   the port of --login's redirect listener, http://127.0.0.1:<n>/callback
                        (default: a free one), for servers that registered that exact redirect URI
  --port <n>            app: the preview page's port; events tail: the receiver's (default: a free one)
  --mode <mode>         events tail: webhook (default), push or poll
  --wire <wire>         auto (default; mcp for app), mcp-lite, mcp or webtools
  --timeout <seconds>   fail when a request shows no sign of life for this long (default 60; 0: never)
  -h, --help            this text

While a call runs, stderr shows its progress (a bar on a terminal, plain lines otherwise);
Ctrl-C cancels the call on the server. Questions the server asks (elicitation) are asked on
the terminal; without one on stdin the call fails.

Exit codes: 0 success, 1 the tool answered isError, 2 usage, protocol or transport error,
130 cancelled with Ctrl-C.

Examples:
  mcplite init hello --runtime node
  mcplite list http://localhost:8000
  mcplite call http://localhost:8000 search_books --arg query=data --arg limit=2
  mcplite call http://localhost:8000/mcp add --args '{"a": 1, "b": 2}' --json
  mcplite inspect -- deno run -A server.ts
`;

"""A FastMCP (Python) server over stdio that starts slowly, as one launched by `uv run` or fetched by
`npx` does: `slow_stdio_server.py SECONDS` sleeps that long before it reads stdin, then serves `add`.
"""

import sys
import time

time.sleep(float(sys.argv[1]))

from fastmcp import FastMCP  # noqa: E402 (imported after the sleep: the start is what is slow)

mcp = FastMCP("slow-python")


@mcp.tool
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


if __name__ == "__main__":
    mcp.run(show_banner=False)

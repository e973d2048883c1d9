"""A FastMCP server for the proxy's tests: `peer.py stdio` or `peer.py http PORT` (0: any free port, which uvicorn prints)."""
import sys
from fastmcp import FastMCP

mcp = FastMCP("fastmcp-peer")


@mcp.tool
def multiply(a: float, b: float) -> float:
    """Multiplies two numbers"""
    return a * b


@mcp.prompt
def review(code: str) -> str:
    """Asks for a review"""
    return f"Review this: {code}"


@mcp.resource("data://greeting")
def greeting() -> str:
    """A greeting"""
    return "hello from FastMCP"


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        mcp.run(transport="stdio", show_banner=False)
    else:
        mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[2]), show_banner=False)

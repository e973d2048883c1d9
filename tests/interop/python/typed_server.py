"""A FastMCP (Python) server whose tools' schemas are what pydantic emits: nested and recursive models
(`$defs` and `$ref`), `Optional` (`anyOf` with null), `Literal` enums, lists, tuples (`prefixItems`),
dicts (`additionalProperties`), defaults and descriptions, and output schemas from return annotations.
`typed_server.py PORT` serves it over Streamable HTTP on 127.0.0.1:PORT at /mcp, for `mcplite types`.
"""

from typing import Annotated, Literal, Optional

from fastmcp import FastMCP
from pydantic import BaseModel, Field

mcp = FastMCP("typed-python")


class Label(BaseModel):
    name: str
    color: Optional[str] = None


class Category(BaseModel):
    """A category and the categories below it."""

    title: str
    children: list["Category"] = []


class Book(BaseModel):
    isbn: str = Field(description="The ISBN-13")
    title: str
    year: int
    format: Literal["paperback", "hardcover", "ebook"]
    labels: list[Label] = []


class SearchResult(BaseModel):
    total: int
    books: list[Book]
    next_cursor: Optional[str] = None


@mcp.tool
def search_books(
    query: Annotated[str, Field(description="Words to look for")],
    limit: int = 10,
    formats: Optional[list[Literal["paperback", "hardcover", "ebook"]]] = None,
    year_range: Optional[tuple[int, int]] = None,
) -> SearchResult:
    """Search the catalogue."""
    return SearchResult(total=0, books=[])


@mcp.tool
def categorize(category: Category, weights: dict[str, float]) -> dict[str, int]:
    """Count the categories of a tree."""
    return {category.title: len(category.children)}


@mcp.tool
def ping() -> str:
    """Answers pong."""
    return "pong"


if __name__ == "__main__":
    import sys

    mcp.run(transport="http", host="127.0.0.1", port=int(sys.argv[1]), show_banner=False)

"""The two tools on FastMCP (the `fastmcp` package), as its users write them: typed functions
whose pydantic parameters and return types make the schemas, structured output from the return
annotation; over stdio, or stateless streamable HTTP with JSON responses.

    python server.py DATA.json stdio
    python server.py DATA.json http PORT          # http://127.0.0.1:PORT/mcp
"""

import json
import sys
from typing import Annotated, Literal

from fastmcp import FastMCP
from pydantic import BaseModel, Field


class Order(BaseModel):
    order_id: str = Field(description="The order id.")
    status: Literal["placed", "in_transit", "delivered"] = Field(description="Where the order is.")
    customer_id: str = Field(description="The customer who placed it.")
    total_cents: int = Field(ge=0, description="What it cost, in cents.")
    items: int = Field(ge=1, description="How many items it holds.")


class Customer(BaseModel):
    id: str
    name: str = Field(max_length=200)
    tier: Literal["free", "pro", "enterprise"]


class Comment(BaseModel):
    author: str
    body: str = Field(max_length=10000)
    internal: bool


class Ticket(BaseModel):
    id: str
    subject: str = Field(max_length=200)
    status: Literal["open", "pending", "resolved", "closed"]
    priority: Literal["low", "medium", "high", "urgent"]
    customer: Customer
    tags: list[str] = Field(max_length=10)
    comments: list[Comment]


class TicketList(BaseModel):
    tickets: list[Ticket] = Field(description="The tickets, newest first.")


data_path, transport = sys.argv[1], sys.argv[2]
with open(data_path, encoding="utf-8") as f:
    data = json.load(f)
orders = {o["order_id"]: Order(**o) for o in data["orders"]}
tickets = [Ticket(**t) for t in data["tickets"]]

mcp = FastMCP("desk")


@mcp.tool(annotations={"readOnlyHint": True})
def lookup_order(
    order_id: Annotated[str, Field(pattern=r"^[A-Z]-[0-9]+$", description="The order id, such as `A-1001`.")],
) -> Order:
    """Look up an order by id."""
    found = orders.get(order_id)
    if found is None:
        raise ValueError(f"no order {order_id}")
    return found


@mcp.tool(annotations={"readOnlyHint": True})
def list_tickets(
    customer_id: Annotated[str, Field(description="The customer whose tickets to list.")],
    limit: Annotated[int, Field(ge=1, le=100, description="How many tickets at most.")] = 20,
) -> TicketList:
    """List a customer's support tickets."""
    return TicketList(tickets=tickets[:limit])


if transport == "stdio":
    mcp.run(transport="stdio", show_banner=False)
elif transport == "http" and len(sys.argv) > 3:
    mcp.run(
        transport="http",
        host="127.0.0.1",
        port=int(sys.argv[3]),
        path="/mcp",
        stateless_http=True,
        json_response=True,
        show_banner=False,
        log_level="warning",
    )
else:
    sys.exit("usage: python server.py DATA.json (stdio | http PORT)")

#!/bin/sh
# An MCP server without tools: it answers tools/list with a JSON-RPC error.
read -r request
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"no-tools","version":"1"}}}'
read -r initialized
read -r list
printf '%s\n' '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"Method not found"}}'
read -r rest

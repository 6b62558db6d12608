#!/bin/sh
# A JSON-RPC server that is not an MCP server: its answer to initialize has no protocolVersion.
read -r request
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"hello":"world"}}'
read -r rest

#!/bin/sh
# An MCP server whose tools/list always gives the same next cursor.
read -r request
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"endless","version":"1"}}}'
read -r initialized
id=2
while read -r list; do
  printf '{"jsonrpc":"2.0","id":%s,"result":{"tools":[],"nextCursor":"again"}}\n' "$id"
  id=$((id + 1))
done

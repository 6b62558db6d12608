#!/bin/sh
# An MCP server over stdio that lists its tools on two pages, and before its first answer sends a
# notification and asks the client a ping. Each message it is sent is checked; a wrong one makes
# it stop with the reason on stderr.
fail() { echo "fake: $1" >&2; exit 1; }
read -r request
case "$request" in
  *'"id":1,"method":"initialize"'*'"protocolVersion":"2025-11-25"'*) ;;
  *) fail "not an initialize request: $request" ;;
esac
printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"starting"}}'
printf '%s\n' '{"jsonrpc":"2.0","id":"srv-1","method":"ping"}'
read -r pong
case "$pong" in
  *'"id":"srv-1"'*'"result":{}'*) ;;
  *) fail "no answer to the ping: $pong" ;;
esac
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"fake-paged","version":"0.1.0"}}}'
read -r initialized
case "$initialized" in
  *'"method":"notifications/initialized"'*) ;;
  *) fail "not the initialized notification: $initialized" ;;
esac
read -r first
case "$first" in
  *'"id":2,"method":"tools/list"'*) ;;
  *) fail "not the first tools/list: $first" ;;
esac
printf '%s\n' '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"first_page","description":"The tool of the first page.","inputSchema":{"type":"object","properties":{"q":{"type":"string","x-source":"page 1"}}},"annotations":{"readOnlyHint":true}}],"nextCursor":"page-2"}}'
read -r second
case "$second" in
  *'"id":3,"method":"tools/list","params":{"cursor":"page-2"}'*) ;;
  *) fail "not the second tools/list with the cursor: $second" ;;
esac
printf '%s\n' '{"jsonrpc":"2.0","id":3,"result":{"tools":[{"name":"second_page","title":"Second page","description":"The tool of the second page.","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}}]}}'
# The client closes stdin to end the session.
read -r rest && fail "a message after the last page: $rest"
exit 0

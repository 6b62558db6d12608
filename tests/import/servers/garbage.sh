#!/bin/sh
# A server that answers what is not JSON-RPC, then stops.
read -r request
echo "Welcome to the fake server! Type HELP for help."
echo "fake: the first message was: $request" >&2
exit 0

#!/bin/sh
# A server that reads the first message and never answers (nor stops when its stdin closes).
read -r request
echo "fake: thinking about $request" >&2
exec sleep 60

#!/bin/sh
# A server that stops at once, saying why on stderr.
echo "fake: cannot read the configuration file /etc/fake.conf" >&2
exit 3

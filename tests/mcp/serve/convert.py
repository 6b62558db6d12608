"""The `command` backend of `to_fahrenheit`: the arguments as JSON on stdin, the result as JSON
on stdout."""

import json
import sys

arguments = json.load(sys.stdin)
json.dump({"fahrenheit": round(arguments["celsius"] * 9 / 5 + 32, 2)}, sys.stdout)

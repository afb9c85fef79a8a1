"""``python -m tyros_protocol schema``: print the protocol's JSON Schema."""

from __future__ import annotations

import json
import os
import sys

from .messages import protocol_schema


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args != ["schema"]:
        print("usage: python -m tyros_protocol schema", file=sys.stderr)
        return 2
    try:
        json.dump(protocol_schema(), sys.stdout, indent=2, sort_keys=True)
        print()
        sys.stdout.flush()
    except BrokenPipeError:  # `... schema | head`: the reader has all it wanted
        # Point stdout at nothing, so that the interpreter's last flush stays quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

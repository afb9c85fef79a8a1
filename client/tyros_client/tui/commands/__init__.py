"""The command line: parse what the player typed into one of the prompt's legal actions.

Pure functions, no terminal and no rules: every action comes from the legal
list the server sent with the prompt (a trade proposal, which the server
lists only in part, is built from the words and checked by the server).
:func:`parse` gives one of

- :class:`Act`: send this action;
- :class:`Choose`: several legal actions fit, let the player pick (a dialog);
- :class:`Local`: a command for the client itself (``help``, ``legal``, ``quit`` ...);
- :class:`Problem`: nothing fits; the message says why and what would.

Each command is described once, in :data:`~.registry.COMMANDS` (its help, handler, action
kinds, phase and argument words); the help, the legal lines, the refusals and the
completion derive from it. :mod:`.board` and :mod:`.trading` hold the handlers,
:mod:`.lexicon` the words for cards, spaces and players, :mod:`.spec` what they share.

Payments default to the sensible choice: among the legal payments the one with
the fewest wild cards (so colour cards go before wilds). When several payments
tie, the player chooses; ``pay CARDS`` names one (``pay green,wild``, ``pay 2g w``).

>>> ctx = Context(legal=[{"kind": "pass"},
...                      {"kind": "move", "from": "TY", "to": "31", "pay": ["violet"]},
...                      {"kind": "move", "from": "TY", "to": "31", "pay": ["wild"]}])
>>> parse("move ty 31", ctx)
Act(action={'kind': 'move', 'from': 'TY', 'to': '31', 'pay': ['violet']})
>>> parse("move ty 31 pay w", ctx).action["pay"]
['wild']
>>> parse("pass", ctx)
Act(action={'kind': 'pass'})
"""

from .board import move_costs
from .lexicon import parse_cards, resolve_player, resolve_space
from .listing import help_lines, legal_lines
from .registry import (
    ALIASES,
    COMMANDS,
    REQUESTS,
    SAY_LIMIT,
    completions,
    parse,
    run_local,
)
from .spec import (
    Act,
    Action,
    Choose,
    Command,
    CommandError,
    Context,
    Local,
    Prefill,
    Problem,
    Result,
    Say,
)

__all__ = [
    "ALIASES",
    "COMMANDS",
    "REQUESTS",
    "SAY_LIMIT",
    "Act",
    "Action",
    "Choose",
    "Command",
    "CommandError",
    "Context",
    "Local",
    "Prefill",
    "Problem",
    "Result",
    "Say",
    "completions",
    "help_lines",
    "legal_lines",
    "move_costs",
    "parse",
    "parse_cards",
    "resolve_player",
    "resolve_space",
    "run_local",
]

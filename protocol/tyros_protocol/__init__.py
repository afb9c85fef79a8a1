"""The shared vocabulary of tyros: board, colours, cards (and, later, messages).

Importing this package stays light (no pydantic): the rules engine uses it.
"""

PROTOCOL_VERSION = 1

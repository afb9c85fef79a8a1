"""The shared vocabulary of tyros: the board (:mod:`.board`), colours and cards
(:mod:`.cards`), error codes (:mod:`.errors`) and the wire messages (:mod:`.messages`).

Importing this package stays light (no pydantic, which only :mod:`.messages` needs): the
rules engine uses it.
"""

PROTOCOL_VERSION = 1

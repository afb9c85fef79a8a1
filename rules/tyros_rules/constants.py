"""The rulebook's numbers, each written once: the engine and the client read them from here.

Section names are the rulebook's (``seeds/000_...txt`` in the shared rules); "RULINGS" is
the shared ``RULINGS.md``, where the project settles what the rulebook leaves open.

The components' own facts stay with the protocol, which must not import the server, and
the engine does not re-export them: the deck (``tyros_protocol.cards.DECK``: cards of each
colour, wild cards), the empire colours in tie-break order (``tyros_protocol.cards.COLOURS``)
and the board, its spaces, map tiles and sea links (``tyros_protocol/data/board.json``).

Import the names into a module (``from .constants import SHIP_LIMIT``): the hot loops of
:mod:`.legal` then read module globals, never attributes.
"""

from __future__ import annotations

# Players: RULINGS "Components" (the rulebook deals cards for 3 or 4 players).

PLAYER_COUNTS: tuple[int, ...] = (3, 4)
"""How many players a game may have."""
MAX_SEATS = max(PLAYER_COUNTS)
"""The most players; also the stride of ``GameState.ships``, whatever the player count."""

# Rulebook "Game Materials" and "Preparing for Play".

SHIPS_PER_PLAYER = 10
"""Ships in each player's supply at the start, the ones in Tyros included."""
CITIES_PER_PLAYER = 10
"""City markers in each player's supply."""
START_SHIPS_IN_TYROS = 2
"""Ships each player puts on the coast of Tyros at the start."""
HAND_TILES = 4
"""Map tiles dealt to each player at the start."""
FIRST_GAME_STARTS: tuple[tuple[int, int], ...] = ((7, 0), (13, 1), (23, 2), (26, 3))
"""(space, colour) of the four empires in a first game ("... in Your First Game")."""

# Rulebook "Sequence of Play", phases 1 and 2, and "Ending the Round".

CARDS_DEALT: dict[int, int] = {3: 12, 4: 10}
"""Commerce cards dealt to each player every round, by player count."""
EXPANSION_PASSES: dict[int, tuple[int, int]] = {3: (2, 2), 4: (2, 1)}
"""Expansion turns of each player in the first round and in later ones, by player count."""
KEEP_CARDS = 3
"""Commerce cards a player keeps at most at the end of a round (RULINGS: of their choice)."""

# Rulebook "3. Card Actions", A to D.

SHIP_LIMIT = 2
"""Ships a space holds at most; in Tyros while it has no city, per player (A)."""
CITY_COST: tuple[int, int] = (5, 4)
"""Cards of the space's colour for a city, with one / with two of your ships there (B)."""
# In Tyros while it has no city, a ship costs instead the ships there plus one, any colours.
SHIP_COST: tuple[int, int] = (1, 2)
"""Cards for a ship in a space of your city holding no ship / one ship (C)."""
SHIP_CARDS_OF_COLOUR = 1
"""How many of a ship's cards must be of the space's colour, wilds counting (C)."""
BANK_DRAW_MAX = 3
"""The most cards traded one for one with the draw pile (D)."""
BANK_PICK_COST = 3
"""Cards paid for one card of your choice from the discard pile (D)."""

# Rulebook "Ending the Game and Determining Victory".

CITY_POINTS: tuple[int, ...] = (12, 10, 9, 8)
"""Points per city, by its empire's rank, largest empire first."""
SHIP_POINTS: tuple[int, ...] = (6, 5, 4, 3)
"""Points per ship-controlled space, by its empire's rank, largest empire first."""
BONUS = 7
"""Points for the first with cities in all four empires, and per empire's sole city majority."""

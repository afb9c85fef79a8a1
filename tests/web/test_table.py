"""The page as a board game's table, in a real browser: pieces in their players' colours,
whose turn it is (banner, seats, the tab's title), what the others just did, the whole
board on a phone, a link to a table, and axe-core's accessibility rules."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.web.harness import (
    ERRORS,
    Server,
    axe_violations,
    join,
    needs_chromium,
    open_page,
    play_on,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = needs_chromium

PLAYER_COLOURS = {"A": "rgb(200, 16, 46)", "B": "rgb(29, 79, 168)", "C": "rgb(255, 255, 255)"}
EMPIRE_TINTS = {"rgb(230, 159, 0)", "rgb(240, 228, 66)", "rgb(0, 158, 115)", "rgb(204, 121, 167)"}

TITLES = """() => {
  window.titles = [document.title];
  new MutationObserver(() => window.titles.push(document.title))
    .observe(document.querySelector("title"), { childList: true, subtree: true });
}"""


SEA_ROUTE = """async ([from, to]) => {
  const board = await (await fetch("/board.json")).json();
  return (await import("/board.js")).seaRoute(board, from, to);
}"""


def fill_of(page: Page, selector: str) -> str:
    """The fill of the first node ``selector`` finds, found and read in one script: the board
    is drawn again at every update, and a node replaced meanwhile has no style at all."""
    script = "(selector) => getComputedStyle(document.querySelector(selector)).fill"
    return str(page.evaluate(script, selector))


def test_pieces_carry_their_players_colours_and_letters(server: Server, browser: Browser) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "pieces", 3, bots=2)
    for letter, colour in PLAYER_COLOURS.items():
        ship = f"#board .ship[data-seat='{letter}']"
        page.wait_for_selector(ship)  # (each seat's ships come with the board, in turn)
        assert fill_of(page, f"{ship} path") == colour
        assert page.locator(f"{ship} text").first.text_content() == letter
    assert not set(PLAYER_COLOURS.values()) & EMPIRE_TINTS
    mine = page.locator("#board .ship[data-seat='A']").count()
    assert mine >= 1 and page.locator("#board .ship.mine").count() == mine
    assert page.locator("#board .mine:not([data-seat='A'])").count() == 0
    # the spaces of your tiles are marked, one each
    tiles = re.search(r"Your tiles: ([\d, ]+)\.", page.inner_text("#hand"))
    assert tiles is not None
    assert page.locator("#board .your-tile").count() == len(tiles.group(1).split(", "))
    # the seats say each player's colour
    chips = page.locator("#seats tbody .chip")
    assert [c.evaluate("n => getComputedStyle(n).backgroundColor") for c in chips.all()] == list(
        PLAYER_COLOURS.values()
    )
    assert page.locator("#board [data-space]").count() == 33  # 32 spaces and Tyros
    assert ERRORS[page] == []


def test_the_banner_seats_and_title_say_whose_turn_and_what_the_others_did(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    page.evaluate(TITLES)
    join(page, "Pat", "turns", 3, bots=2)
    expect(page.locator("#turn.yours")).to_be_visible()
    assert page.title() == "(your turn) Tyros - turns"
    expect(page.locator("#seats tr.acting")).to_contain_text("A Pat")
    # the others act: the title loses its mark meanwhile, and the board frames what they did
    play_on(page, "#board [data-recent='B']")
    page.wait_for_function("window.titles.includes('Tyros - turns')")
    titles = page.evaluate("window.titles")
    assert "(your turn) Tyros - turns" in titles
    assert page.locator("#board .recent.seat1").count() >= 1
    assert ERRORS[page] == []


def test_the_phone_shows_the_whole_board_without_scrolling_the_page(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url, width=390, height=844)
    join(page, "Pat", "phone", 3, bots=2)
    # (on Pat's turn the bots wait: nothing above the board changes while it is measured)
    page.wait_for_selector("#turn.yours")
    page.wait_for_selector("#board [data-space='TY']")
    spaces = page.locator("#board [data-space]")
    assert spaces.count() == 33
    for space in spaces.all():
        box = space.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["y"] + box["height"] <= 844
    page.fill("#say", "w" * 300)  # a word as long as talk allows
    page.click("#talk button")
    page.wait_for_selector("#log li.chat")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#zoom")  # zoomed, the board pans in its own frame; the page still does not
    assert page.evaluate("document.getElementById('board').scrollWidth") > 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # A space tapped on your turn: what you may do there comes into view below the board.
    page.click("#board [data-space='TY']")
    expect(page.locator("#filter")).to_be_in_viewport()
    assert page.inner_text("#filter").startswith("Space TY ")
    # The next table opens with the whole board in sight again.
    page.click("#leave")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.locator("#board.zoomed").count() == 0
    assert page.inner_text("#zoom") == "Zoom the board"
    assert ERRORS[page] == []


def test_a_laptop_shows_the_choices_beside_the_board_without_scrolling(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url, width=1366, height=768)
    join(page, "Pat", "laptop", 4, bots=3)
    play_on(page, "#choices button:text-is('pass'):not([disabled])")  # a card turn
    for selector in ("#turn", "#hand", "#request-title", "#choices button:text-is('pass')"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["y"] + box["height"] <= 768, selector
    # what you may do starts in the upper half, above the log: room for its choices
    request = page.locator("#request").bounding_box()
    log = page.locator("#log-box").bounding_box()
    assert request is not None and log is not None
    assert request["y"] < 768 / 2 and request["y"] < log["y"]
    board = page.locator("#board").bounding_box()
    assert board is not None and board["y"] + board["height"] <= 768
    assert ERRORS[page] == []


def test_a_link_opens_the_table_at_the_seat_held_else_to_watch(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "linked", 3, bots=2)
    assert page.evaluate("location.hash") == "#linked"
    page.goto("about:blank")  # the same browser, back by the link: it holds the seat
    page.goto(server.url + "#linked")
    page.wait_for_selector("#status:text('playing at table linked as A')")
    watching = "#status:text('watching table linked')"
    other = open_page(browser, server.url + "#linked", ready=watching)  # another browser
    other.click("#leave")
    other.wait_for_selector("#lobby:not([hidden])")
    assert other.evaluate("location.hash") == ""
    assert ERRORS[page] == [] and ERRORS[other] == []


def test_a_blank_name_and_a_name_refused_are_said_in_the_pages_words(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    page.fill("#name", "   ")
    page.fill("#table-name", "words")
    page.click("#join button[type=submit]")
    page.wait_for_selector("#status:text('Write your name first')")
    assert page.locator("#lobby").is_visible()
    page.fill("#name", "P\u0430t")  # a Cyrillic a among Latin letters
    page.click("#join button[type=submit]")
    said = page.wait_for_selector("#lobby-refusal:text('That name cannot be used: ')")
    assert said is not None and "Value error" not in said.inner_text()
    assert "hello.name" not in said.inner_text()
    assert ERRORS[page] == []


def test_axe_finds_nothing_on_the_lobby_and_a_seats_turn(server: Server, browser: Browser) -> None:
    for width, height in ((1366, 768), (390, 844)):
        page = open_page(browser, server.url, width=width, height=height)
        assert axe_violations(page) == [], width
        join(page, "Pat", f"axe{width}", 3, bots=2)
        page.wait_for_selector("#turn.yours")
        assert axe_violations(page) == [], width
        assert ERRORS[page] == []


def test_axe_finds_nothing_in_a_trade_the_end_and_a_replay(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "axetrade", 3, bots=2)
    server.bots("axedone", 3, 3)  # meanwhile three bots play a whole game
    play_on(page, "#request-title:has-text('offers')", most=3000)  # a bot's offer to answer
    assert axe_violations(page) == []
    for width, height in ((1366, 768), (390, 844)):
        viewer = open_page(browser, server.url, width=width, height=height)
        row = "#tables tr:has(td:text('axedone')):has(td:text('finished'))"
        viewer.wait_for_selector(row, timeout=180_000)
        assert "finished, won by " in viewer.inner_text(row)  # the lobby names the winners
        viewer.click(f"{row} button:text('Replay')")
        viewer.wait_for_selector("#replay-where:text('decision 0 of')")
        assert axe_violations(viewer) == [], width
        viewer.click("#replay-last")
        viewer.wait_for_selector("#score:not([hidden])")
        assert "Final score" in viewer.inner_text("#score")
        assert axe_violations(viewer) == [], width
        assert ERRORS[viewer] == []


def test_a_ship_that_moved_sails_there_unless_motion_is_reduced(
    server: Server, browser: Browser
) -> None:
    """The update that brings another seat's move draws its route and sails the ship (an
    SVG translation from where it came); under ``prefers-reduced-motion`` the route alone."""
    page = open_page(browser, server.url)
    join(page, "Pat", "sailing", 3, bots=2)
    calm = browser.new_page(reduced_motion="reduce")  # watches the same table
    ERRORS[calm] = []
    calm.goto(server.url + "#sailing")
    calm.wait_for_selector("#status:text('watching table sailing')")
    play_on(page, "#board .ship:has(animateTransform)", most=3000)
    assert page.locator("#board .trail").count() >= 1
    route = page.evaluate(SEA_ROUTE, ["TY", "21"])  # (a trail follows the sea links)
    assert route == ["TY", "31", "30", "26", "21"]
    assert page.evaluate(SEA_ROUTE, ["16W", "17"]) == ["16W", "17"]
    calm.wait_for_selector("#board .trail", state="attached")
    assert calm.locator("#board animateTransform").count() == 0
    assert ERRORS[page] == [] and ERRORS[calm] == []


CROWDED = """async () => {
  const { drawBoard } = await import("/board.js");
  const board = await (await fetch("/board.json")).json();
  const holder = document.createElement("div");
  document.body.append(holder);
  const fleet = (port, seats) => seats.map((seat) => ({ seat, port, count: seat + 1 }));
  const ships = [["TY", [0, 1, 2, 3]], ["23", [0, 1, 2, 3]], ["18", [0, 1, 2, 3]],
                 ["13", [1, 2]], ["16W", [0, 1]], ["16E", [2, 3]]];
  const view = {
    chips: { "23": "green" },
    cities: { TY: 2, "23": 1, "13": 0, "16": 3 },
    ships: ships.flatMap(([port, seats]) => fleet(port, seats)),
  };
  drawBoard(holder, board, view, null, () => {}, { seat: 0 });
  const box = (node) => node.getBoundingClientRect();
  const inside = (a, b) => a.left >= b.left - 1 && a.right <= b.right + 1
    && a.top >= b.top - 1 && a.bottom <= b.bottom + 1;
  const apart = (a, b) => a.right <= b.left + 1 || b.right <= a.left + 1
    || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
  const found = [];
  for (const label of ["TY", "23", "18", "13", "16"]) {
    const space = box(holder.querySelector(`[data-space="${label}"]`));
    const here = [...holder.querySelectorAll(".ship")]
      .filter((s) => s.dataset.port.replace(/[WE]$/, "") === label);
    const pieces = [...here, ...holder.querySelectorAll(".city")]
      .map(box).filter((b) => inside(b, space));
    const overlaps = pieces.flatMap((a, i) => pieces.slice(i + 1).filter((b) => !apart(a, b)));
    found.push([label, here.length, here.filter((s) => inside(box(s), space)).length,
                overlaps.length]);
  }
  holder.remove();
  return found;
}"""


def test_four_seats_ships_and_a_city_share_a_space_without_covering_each_other(
    server: Server, browser: Browser
) -> None:
    """Every seat may have ships in Tyros, beside a city: they are drawn smaller rather than
    over each other or past the space's edge (Italy keeps each coast's ships on its half)."""
    for width, height in ((1280, 800), (390, 844)):
        page = open_page(browser, server.url, width, height)
        found = page.evaluate(CROWDED)
        assert found == [
            ["TY", 4, 4, 0],
            ["23", 4, 4, 0],
            ["18", 4, 4, 0],
            ["13", 2, 2, 0],
            ["16", 4, 4, 0],
        ], width
        assert ERRORS[page] == []


UNDER_THE_PIECES = """async () => {
  const { drawBoard } = await import("/board.js");
  const board = await (await fetch("/board.json")).json();
  const holder = document.createElement("div");
  document.body.prepend(holder);
  window.picked = [];
  const view = {
    cities: { TY: 2, "30": 1 },
    ships: [0, 1, 2].map((seat) => ({ seat, port: "TY", count: 1 })).concat(
      [{ seat: 1, port: "21", count: 2 }]),
  };
  const recent = { 1: { kind: "move", from: "TY", to: "21" }, 2: { kind: "city", space: "30" } };
  drawBoard(holder, board, view, null, (label) => window.picked.push(label),
            { seat: 0, recent, tiles: ["31"] });
  // the middle of each piece and mark, and each bend of the trail, in the page's pixels
  const middle = (node) => { const b = node.getBoundingClientRect();
                             return [b.x + b.width / 2, b.y + b.height / 2]; };
  const points = [];
  for (const node of holder.querySelectorAll(".ship, .city, .recent, .your-tile")) {
    points.push([node.getAttribute("class"), ...middle(node)]);
  }
  const trail = holder.querySelector(".trail");
  for (const p of trail.points) {
    const at = new DOMPoint(p.x, p.y).matrixTransform(trail.getScreenCTM());
    points.push(["trail", at.x, at.y]);
  }
  return points.map(([what, x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return [what, x, y, hit && hit.classList.contains("cell") ? hit.dataset.space : null];
  });
}"""


def test_a_click_on_a_piece_or_a_mark_is_a_click_on_the_space_under_it(
    server: Server, browser: Browser
) -> None:
    """Ships, cities, the marks of what the others did (a trail, a frame) and your tiles are
    drawn over their spaces: a click on any of them picks the space, as a player expects."""
    page = open_page(browser, server.url)
    found = page.evaluate(UNDER_THE_PIECES)
    kinds = {what.split()[0] for what, *_ in found}
    assert kinds == {"ship", "city", "recent", "your-tile", "trail"}, kinds
    missed = [(what, space) for what, _x, _y, space in found if space is None]
    assert missed == []
    ship = next((x, y) for what, x, y, _ in found if what.startswith("ship") and "mine" in what)
    page.mouse.click(*ship)  # a real click, on the middle of the seat's own ship in Tyros
    assert page.evaluate("window.picked") == ["TY"]
    assert ERRORS[page] == []


SCORE_PAD = """async () => {
  const { renderScore } = await import("/seats.js");
  const colours = ["orange", "yellow", "green", "violet"];
  const player = (seat, total) => ({
    seat, total, empires: colours.map((colour, i) => ({ colour, points: 10 + seat + i })),
    majority_bonus: seat === 2 ? ["orange", "yellow"] : [], majority_points: seat === 2 ? 14 : 0,
    all_four_bonus: 3, largest_empire_points: 36,
  });
  const score = { empires: colours.map((colour) => ({ colour })),
                  players: [player(0, 65), player(1, 58), player(2, 72), player(3, 71)],
                  winners: [2] };
  const box = document.getElementById("score");
  document.body.prepend(box);  // (out of the hidden table's section)
  const names = ["Bartholomew", "bot-1", "bot-2", "bot-3"];
  renderScore(box, { score }, (seat) => `${"ABCD"[seat]} ${names[seat]}`);
  const table = box.querySelector("table");
  return {
    columns: [...table.rows[0].cells].map((c) => c.innerText.trim()),
    rows: [...table.rows].slice(1).map((r) => r.cells[0].innerText),
    total: [...table.rows].at(-1).innerText.split(/\\s+/),
    winners: [...table.querySelectorAll(".winner")].map((c) => c.cellIndex),
    fits: box.scrollWidth <= box.clientWidth && table.getBoundingClientRect().right <= innerWidth,
  };
}"""


def test_the_final_score_is_a_score_pad_that_a_phone_shows_whole(
    server: Server, browser: Browser
) -> None:
    """A column a player and a row a line of the sheet, the total at the foot, the winner's
    column marked: four players' whole sheet fits a phone's width without scrolling."""
    for width, height in ((1280, 800), (390, 844)):
        page = open_page(browser, server.url, width, height)
        pad = page.evaluate(SCORE_PAD)
        assert pad["columns"] == ["", "A Bartholomew", "B bot-1", "C bot-2", "D bot-3"]
        assert pad["rows"] == [
            "orange",
            "yellow",
            "green",
            "violet",
            "majority bonus",
            "all four",
            "largest empire (tie-break)",
            "total",
        ]
        assert pad["total"] == ["total", "65", "58", "72", "71"]
        assert set(pad["winners"]) == {3} and len(pad["winners"]) == 9  # C's whole column
        assert pad["fits"], width
        assert ERRORS[page] == []


TYROS_FILL = """async (chips) => {
  const { drawBoard } = await import("/board.js");
  const board = await (await fetch("/board.json")).json();
  const holder = document.createElement("div");
  document.body.prepend(holder);
  drawBoard(holder, board, { chips }, null, () => {}, { seat: 0 });
  const fill = (label) => getComputedStyle(holder.querySelector(`[data-space="${label}"]`)).fill;
  const fills = [fill("TY"), fill("31")];
  holder.remove();
  return fills;
}"""


def test_tyros_is_drawn_as_any_space_in_its_empires_colour(
    server: Server, browser: Browser
) -> None:
    """Tyros is framed, not tinted: a tint of its own read as violet's, and hid its empire."""
    page = open_page(browser, server.url)
    empty = page.evaluate(TYROS_FILL, {})
    assert empty[0] == empty[1] and empty[0] not in EMPIRE_TINTS  # as an empty space
    tyros, cilicia = page.evaluate(TYROS_FILL, {"TY": "violet", "31": "green"})
    assert tyros == "rgb(204, 121, 167)" and cilicia == "rgb(0, 158, 115)"
    assert ERRORS[page] == []


def test_a_table_the_servers_limits_refuse_is_said_beside_the_form(
    server: Server, browser: Browser
) -> None:
    """The server closes the connection after refusing a third table of its bots from one
    address: the page says why beside the form, not "connection lost"."""
    for table in ("one", "two"):
        join(open_page(browser, server.url), "Pat", table, 3, bots=2)
    page = open_page(browser, server.url)
    page.fill("#name", "Pat")
    page.fill("#table-name", "three")
    page.select_option("#players", "3")
    page.select_option("#bots", "2")
    page.click("#join button[type=submit]")
    refusal = page.wait_for_selector("#lobby-refusal:not([hidden])")
    assert refusal is not None and refusal.inner_text().startswith("Refused: ")
    assert "tables" in refusal.inner_text()
    page.wait_for_selector("#status:text('connected')")  # (back, to the list of tables)
    assert page.locator("#lobby-refusal").is_visible() and ERRORS[page] == []


def test_the_cards_kept_at_a_rounds_end_are_picked_as_cards(
    server: Server, browser: Browser
) -> None:
    page = open_page(browser, server.url)
    join(page, "Pat", "keeping", 3, bots=2)
    play_on(page, "#choices .keep", most=3000)
    pickers = page.locator("#choices .keep select")
    assert 1 <= pickers.count() <= 3 and page.locator("#choices button").count() == 1
    held = [o for o in pickers.first.locator("option").all_inner_texts() if o != "(none)"]
    for picker in pickers.all():
        picker.select_option("")  # keep nothing but the first picker's first colour
    pickers.first.select_option(held[0])
    page.click("#choices .keep button")
    page.wait_for_selector(f"#log li:text('A Pat: keep {held[0]}')")
    assert ERRORS[page] == []


def test_a_bank_draw_is_paid_card_by_card(server: Server, browser: Browser) -> None:
    """Not one list of every payment (up to 28): up to three pickers of the colours held."""
    for deal in range(8):  # a deal with a colour held fewer than three times (most deals)
        page = open_page(browser, server.url)
        join(page, "Pat", f"bank-{deal}", 3, bots=2)
        play_on(page, "#choices .bank_draw")
        faces = page.locator("#hand .card").all_inner_texts()  # ("green 2")
        hand = {card: int(count) for card, count in (face.split() for face in faces)}
        pickers = page.locator("#choices .bank_draw select")
        options = pickers.first.locator("option").all_inner_texts()
        held = [o for o in options if o != "(none)"]
        if any(hand[card] < 3 for card in held):
            break
    else:
        pytest.fail("8 deals in a row held every colour three times or more")
    assert pickers.count() == 3
    for picker in pickers.all():
        picker.select_option("")
    page.click("#choices .bank_draw button")  # nothing picked: said, nothing sent
    assert page.inner_text("#choices .bank_draw span") == "pick the cards to discard"
    # A card picked more often than it is held: how many there are, nothing sent.
    card = next(c for c in held if hand[c] < 3)
    for picker in pickers.all():
        picker.select_option(card)
    page.click("#choices .bank_draw button")
    assert page.inner_text("#choices .bank_draw span") == f"you can pick only {hand[card]} {card}"
    for picker in pickers.all():
        picker.select_option("")
    pickers.nth(1).select_option(held[-1])  # (any picker: one card paid)
    page.click("#choices .bank_draw button")
    page.wait_for_selector(f"#log li:text('A Pat: discard {held[-1]}, draw 1')")
    assert ERRORS[page] == []

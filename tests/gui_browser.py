#!/usr/bin/env python3
"""Plays magus gui's page in a real browser (Chromium, driven by Playwright), by clicks.

    gui_browser.py URL SCENARIO... [--shots DIR]

Each scenario is a variant (or `features`, the page's tools); each plays that variant's
special moves by pointer (and keyboard) and a game to its end, and checks what the page shows
against the server's own state. tests/gui_browser.rs starts the server and runs this; with --shots, screenshots of
each variant's board go into DIR.
"""

import os
import re
import sys
from urllib.parse import urljoin

from playwright.sync_api import expect, sync_playwright

CHROMIUM = os.environ.get("MAGUS_CHROMIUM", "/usr/bin/chromium")
TIMEOUT = 20_000


class Page:
    def __init__(self, page, url, shots):
        self.page = page
        self.url = url
        self.shots = shots
        expect.set_options(timeout=TIMEOUT)

    # ------------------------------------------------------------ reading the page

    def state(self):
        return self.page.evaluate(
            "fetch('/api/games/' + location.hash.split('=')[1]).then(r => r.json())"
        )

    def sans(self):
        return [m["san"] for m in self.state()["moves"]]

    def square(self, name):
        return self.page.locator(f'#board [data-square="{name}"]')

    def piece_on(self, name):
        img = self.square(name).locator("img.piece")
        return img.get_attribute("data-piece") if img.count() else None

    def plies(self):
        return self.page.locator("#move-list td.san[data-ply]").count()

    def wait_plies(self, n):
        self.page.wait_for_function(
            "n => document.querySelectorAll('#move-list td.san[data-ply]').length === n",
            arg=n,
            timeout=TIMEOUT,
        )

    def last_san(self):
        return self.sans()[-1]

    # ------------------------------------------------------------ acting on it

    def click(self, square):
        self.square(square).click()

    def move(self, a, b, san=None):
        """A move by two clicks that needs no choice; checks its SAN if given."""
        n = self.plies()
        self.click(a)
        self.click(b)
        self.wait_plies(n + 1)
        if san is not None:
            got = self.last_san()
            assert got == san, f"{a}-{b}: {got}, expected {san}"

    def drag(self, a, b):
        """Drags the piece on `a` to `b` with the mouse, as a person does."""
        src = self.square(a).bounding_box()
        dst = self.square(b).bounding_box()
        mouse = self.page.mouse
        mouse.move(src["x"] + src["width"] / 2, src["y"] + src["height"] / 2)
        mouse.down()
        mouse.move(dst["x"] + dst["width"] / 2, dst["y"] + dst["height"] / 2, steps=8)
        mouse.up()

    def selected(self):
        return self.page.locator("#board .sq.selected").evaluate_all(
            "xs => xs.map(x => x.dataset.square)"
        )

    def move_showing(self, a, shown, b):
        """A move by two clicks, `a` then `b`, where clicking `a` marks `shown` as a target."""
        n = self.plies()
        self.click(a)
        expect(self.square(shown)).to_have_class(re.compile(r"\btarget\b"))
        self.click(b)
        self.wait_plies(n + 1)

    def choose(self, choice):
        chooser = self.page.locator("#chooser")
        expect(chooser).to_be_visible()
        chooser.locator(f'[data-choice="{choice}"]').click()

    def chooser_choices(self):
        expect(self.page.locator("#chooser")).to_be_visible()
        return self.page.locator("#chooser button.option").evaluate_all(
            "bs => bs.map(b => b.dataset.choice)"
        )

    def promote(self, a, b, offered, choice):
        """A promotion by two clicks: the chooser offers the pieces `offered` (letters), and
        `choice` is played."""
        n = self.plies()
        self.click(a)
        self.click(b)
        assert sorted(self.chooser_choices()) == sorted(f"piece-{x}" for x in offered)
        self.choose(f"piece-{choice}")
        self.wait_plies(n + 1)

    def new_game(self, variant, opponent="humans", fen=None, level=None, clock=None, scoring=None):
        self.page.click("#new-game-button")
        dialog = self.page.locator("#new-game-dialog")
        expect(dialog).to_be_visible()
        self.page.select_option("#ng-variant", variant)
        self.page.select_option("#ng-opponent", opponent)
        if level is not None:
            self.page.select_option("#ng-level", str(level))
        if opponent != "analysis":  # an analysis board has no clock to choose
            self.page.select_option("#ng-clock", clock or "none")
        if scoring is not None:
            self.page.select_option("#ng-scoring", scoring)
        self.page.fill("#ng-fen", fen or "")
        old = self.page.evaluate("location.hash")
        self.page.click("#ng-start")
        expect(dialog).to_be_hidden()
        self.page.wait_for_function("old => location.hash !== old", arg=old)
        state = self.state()
        assert state["variant"] == variant, state["variant"]
        if fen:
            # The game's start: the FEN given (magus may have moved since). A variant with
            # reserves writes them after the board, in brackets.
            board = re.sub(r"\[.*\]", "", state["start_fen"].split()[0])
            assert board == fen.split()[0], (state["start_fen"], fen)
        return state

    def shot(self, name):
        if self.shots:
            self.page.mouse.move(0, 0)
            # The last move's glide (0.18 s) has ended: no piece half-way in the picture.
            self.page.wait_for_timeout(300)
            self.page.screenshot(path=os.path.join(self.shots, f"{name}.png"))

    def expect_result(self, text, result):
        expect(self.page.locator("#status")).to_contain_text(text)
        expect(self.page.locator("#status")).to_have_attribute("data-result", result)

    def fools_mate(self):
        self.move("f2", "f3", "f3")
        self.move("e7", "e5", "e5")
        self.move("g2", "g4", "g4")
        self.move("d8", "h4", "Qh4#")
        self.expect_result("Black wins by checkmate", "0-1")
        expect(self.square("e1")).to_have_class(re.compile(r"\bcheck\b"))


# ---------------------------------------------------------------------- scenarios


def chess(p):
    page = p.page
    # The page opens on a game against magus with White: magus answers a click-move.
    state = p.state()
    assert state["settings"]["black"] == "engine"
    p.click("e2")
    targets = page.locator("#board .sq.target").evaluate_all("xs => xs.map(x => x.dataset.square)")
    assert sorted(targets) == ["e3", "e4"], targets
    p.click("e4")
    p.wait_plies(2)
    assert p.sans()[0] == "e4"
    # Take back: to the person's move.
    page.click("#undo-button")
    p.wait_plies(0)
    # magus with White, the person at the bottom with Black.
    p.new_game("chess", "engine-white", level=1)
    first = page.locator("#board .sq").first.get_attribute("data-square")
    assert first == "h1", f"the board is not turned for Black: {first}"
    p.wait_plies(1)
    # White's first move alone in its row stands in White's column, left of the middle.
    cell = page.locator('#move-list td.san[data-ply="1"]').bounding_box()
    table = page.locator("#move-list").bounding_box()
    assert cell["x"] + cell["width"] / 2 < table["x"] + table["width"] / 2, (cell, table)
    reply = "e7" if p.piece_on("e7") else "d7"
    # Clicks, then magus's answer: at level 1 it may come with the page's own move.
    p.click(reply)
    p.click(reply[0] + "5")
    p.wait_plies(3)
    # A game to its end by clicks.
    p.new_game("chess")
    p.fools_mate()
    p.shot("chess-mate")
    # Castling both ways: the King's square, and the Rook's.
    p.new_game("chess", fen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    p.move_showing("e1", "g1", "g1")
    assert p.last_san() == "O-O"
    assert p.piece_on("f1") == "white-R" and p.piece_on("g1") == "white-K"
    p.move("e8", "a8", "O-O-O")
    assert p.piece_on("c8") == "black-K" and p.piece_on("d8") == "black-R"
    # Promotion: the chooser, cancelled with Escape, then a Knight.
    p.new_game("chess", fen="8/P6k/8/8/8/8/8/K7 w - - 0 1")
    p.click("a7")
    p.click("a8")
    assert sorted(p.chooser_choices()) == ["piece-B", "piece-N", "piece-Q", "piece-R"]
    page.keyboard.press("Escape")
    expect(page.locator("#chooser")).to_be_hidden()
    assert p.plies() == 0
    p.click("a7")
    p.click("a8")
    p.choose("piece-N")
    p.wait_plies(1)
    assert p.last_san() == "a8=N" and p.piece_on("a8") == "white-N"
    # En passant.
    p.new_game("chess", fen="4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1")
    p.move("d7", "d5", "d5")
    p.move("e5", "d6", "exd6")
    assert p.piece_on("d5") is None
    # Dragging a piece.
    p.new_game("chess")
    p.drag("g1", "f3")
    p.wait_plies(1)
    assert p.last_san() == "Nf3"
    # Dragging a piece already selected moves it.
    p.click("g8")
    assert p.selected() == ["g8"]
    p.drag("g8", "f6")
    p.wait_plies(2)
    assert p.last_san() == "Nf6"
    # A drop where the piece cannot go puts it back, deselected; the next drag moves it.
    p.drag("b1", "b4")
    expect(page.locator("#board .sq.selected")).to_have_count(0)
    assert p.plies() == 2 and p.piece_on("b1") == "white-N"
    p.drag("b1", "c3")
    p.wait_plies(3)
    assert p.last_san() == "Nc3"
    # magus plays a game to its end: a mate in one at the weakest level.
    p.new_game("chess", "engine-white", level=1, fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    p.expect_result("White wins by checkmate", "1-0")
    assert p.sans() == ["Ra8#"]


def deathmatch(p):
    page = p.page
    # The swap-in: the Bishop, then its own square again (marked with the Magician).
    p.new_game("deathmatch")
    # The Bishops that can swap are marked before they are selected.
    expect(p.square("c1").locator("img.badge")).to_be_visible()
    expect(p.square("f1").locator("img.badge")).to_be_visible()
    p.click("c1")
    expect(p.square("c1").locator("img.badge.armed")).to_be_visible()
    p.click("c1")
    p.wait_plies(1)
    assert p.last_san() == "Bc1=M" and p.piece_on("c1") == "white-M"
    # A selected Bishop dragged goes where it is dragged: never the swap-in.
    p.new_game("deathmatch")
    p.move("e2", "e4", "e4")
    p.move("e7", "e5", "e5")
    p.click("f1")
    assert p.selected() == ["f1"]
    p.drag("f1", "c4")
    p.wait_plies(3)
    assert p.last_san() == "Bc4", p.sans()
    # After a drop on a square it cannot reach, the next drag still moves it.
    p.drag("f8", "f6")
    expect(page.locator("#board .sq.selected")).to_have_count(0)
    assert p.plies() == 3
    p.drag("f8", "c5")
    p.wait_plies(4)
    assert p.last_san() == "Bc5", p.sans()
    # A pawn to the 6th rank: which Magician, then High-Priestess or Telepath.
    p.new_game("deathmatch", fen="4k3/8/8/4P3/8/8/2M2M2/4K3 w - - 0 1")
    p.click("e5")
    p.click("e6")
    expect(page.locator("#status")).to_contain_text("Magician")
    choices = page.locator("#board .sq.choice").evaluate_all("xs => xs.map(x => x.dataset.square)")
    assert sorted(choices) == ["c2", "f2"], choices
    p.shot("deathmatch-choose-magician")
    # While the choice is made, the pawn stands on the square it goes to.
    assert p.piece_on("e6") == "white-P" and p.piece_on("e5") is None
    p.click("f2")
    assert sorted(p.chooser_choices()) == ["piece-H", "piece-T"]
    p.shot("deathmatch-choose-piece")
    p.choose("piece-T")
    p.wait_plies(1)
    assert p.last_san() == "e6 Mf2=T" and p.piece_on("f2") == "white-T"
    assert p.piece_on("c2") == "white-M"
    # Promotion to any of Q R B N M H T.
    p.new_game("deathmatch", fen="k7/4P3/8/8/8/8/8/K7 w - - 0 1")
    p.promote("e7", "e8", "QRBNMHT", "H")
    assert p.last_san() == "e8=H" and p.piece_on("e8") == "white-H"
    # Castling.
    p.new_game("deathmatch", fen="r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1")
    p.move("e1", "c1", "O-O-O")
    # A game to its end.
    p.new_game("deathmatch")
    p.fools_mate()


def deathmatch_legacy(p):
    # One swap a game: after it, the other Bishop offers none.
    p.new_game("deathmatch-legacy")
    p.click("c1")
    p.click("c1")
    p.wait_plies(1)
    assert p.last_san() == "Bc1=M"
    p.move("e7", "e6", "e6")
    p.move("e2", "e3", "e3")
    p.move("d7", "d6", "d6")
    p.click("f1")
    expect(p.square("f1")).to_have_class(re.compile(r"\bselected\b"))
    assert p.square("f1").locator("img.badge").count() == 0
    # The 6th rank: the opponent's strongest piece dictates the Magician's new piece, so the
    # move plays with no choice.
    p.new_game("deathmatch-legacy", fen="3qk3/8/8/4P3/8/8/2M5/4K3 w - - 0 1")
    p.click("e5")
    p.click("e6")
    p.wait_plies(1)
    assert p.last_san() == "e6 M=V", p.last_san()
    assert p.piece_on("c2") == "white-V"
    p.shot("deathmatch-legacy")
    expect(p.page.locator("#chooser")).to_be_hidden()
    # Promotion: the Magician among the choices while no Magician-family piece is on board.
    p.new_game("deathmatch-legacy", fen="k7/4P3/8/8/8/8/8/K7 w - - 0 1")
    p.promote("e7", "e8", "QRBNM", "M")
    assert p.last_san().startswith("e8=M")
    p.new_game("deathmatch-legacy")
    p.fools_mate()


def magi(p):
    page = p.page
    p.new_game("magi")
    files = page.locator("#board .coord.file").all_text_contents()
    ranks = page.locator("#board .coord.rank").all_text_contents()
    assert files == list("abcdefghij"), files
    assert ranks == [str(r) for r in range(10, 0, -1)], ranks
    # The pawn's triple step.
    p.move("e2", "e5", "e5")
    p.shot("magi")
    # Castling three squares, by clicking the Rook.
    p.new_game("magi", fen="rnbcqk3r/pppppppppp/3p2p3/10/10/10/10/3P2P3/PPPPPPPPPP/RNBCQK3R w KQkq - 0 1")
    p.move_showing("f1", "i1", "j1")
    assert p.last_san() == "O-O" and p.piece_on("i1") == "white-K" and p.piece_on("h1") == "white-R"
    # Promotion to a Wizard among Magi's pieces.
    p.new_game("magi", fen="k9/4P5/10/10/10/10/10/10/10/K9 w - - 0 1")
    p.promote("e9", "e10", "QRBNDCW", "W")
    assert p.last_san() == "e10=W" and p.piece_on("e10") == "white-W"
    # A game to its end.
    p.new_game("magi", fen="k9/10/1K8/10/10/10/10/10/9Q/10 w - - 0 1")
    p.move("j2", "j10", "Qj10#")
    p.expect_result("White wins by checkmate", "1-0")
    # The 12-point payoff: a resignation in the first band.
    p.new_game("magi", scoring="magi-12")
    p.move("e2", "e4", "e4")
    page.once("dialog", lambda d: d.accept())
    page.click("#resign-button")
    p.expect_result("White wins by resignation", "1-0")
    expect(page.locator("#status .payoff")).to_have_attribute("data-payoff", "12-0")


def magician_chess(p):
    page = p.page
    p.new_game("magician-chess")
    holes = page.locator("#board .sq.hole")
    expect(holes).to_have_count(9)
    assert holes.locator("img").count() == 0, "a hole holds no piece picture"
    # A spell: the hole, then the square beside it, then carry.
    fen = "3k3/3*3/*5*/*2*n1*/*1M3*/3*3/3K3 w - - 0 1"
    p.new_game("magician-chess", fen=fen)
    p.click("d4")
    targets = page.locator("#board .sq.target").evaluate_all("xs => xs.map(x => x.dataset.square)")
    assert sorted(targets) == ["c4", "d3", "d5", "e4"], targets
    p.click("e4")
    assert sorted(p.chooser_choices()) == ["carry", "drop"]
    # The two choices do not look the same.
    looks = page.locator("#chooser button.option img").evaluate_all(
        "xs => xs.map(x => { const s = getComputedStyle(x); return s.backgroundImage + s.borderRightStyle + s.clipPath; })"
    )
    assert len(set(looks)) == 2, looks
    p.shot("magician-chess-spell")
    p.choose("carry")
    p.wait_plies(1)
    assert p.last_san() == "He4"
    assert p.piece_on("d4") == "black-N"
    expect(p.square("e4")).to_have_class(re.compile(r"\bhole\b"))
    # ... and drop.
    p.new_game("magician-chess", fen=fen)
    p.click("d4")
    p.click("e4")
    p.choose("drop")
    p.wait_plies(1)
    assert p.last_san() == "Hxe4"
    assert p.piece_on("d4") is None and not any(
        pc["square"] == "e4" for pc in p.state()["board"]["pieces"]
    )
    # Castling in its own form, both sides.
    p.new_game("magician-chess", fen="r2k2r/ppp*ppp/*5*/*2*2*/*5*/PPP*PPP/R2K2R w KQkq - 0 1")
    p.move("d1", "b1", "0-0(b)")
    p.move("d7", "g7", "0-0(f)")
    # Promotion to the compounds.
    p.new_game("magician-chess", fen="k6/3*P2/*5*/*2*2*/*5*/3*3/K6 w - - 0 1")
    p.click("e6")
    p.click("e7")
    assert sorted(p.chooser_choices()) == ["piece-C", "piece-S", "piece-W"]
    p.choose("piece-S")
    p.wait_plies(1)
    assert p.last_san().startswith("e7=S")
    # A game to its end.
    p.new_game("magician-chess", fen="k6/3*3/*K4*/*2*2*/*5*/3*3/5R1 w - - 0 1")
    p.move("f1", "f7", "Rf7#")
    p.expect_result("White wins by checkmate", "1-0")


def royal_magician(p):
    page = p.page
    p.new_game("royal-magician")
    expect(page.locator(".tray")).to_have_count(4)
    # A carrier's move that drops: the move, the piece, then the square.
    p.new_game("royal-magician", fen="rnbmkbnr/pppppppp/8/8/4P3/3MK3/PPPP1PPP/RNB2BNR w kq - 0 4")
    p.click("e3")
    p.click("f4")
    assert sorted(p.chooser_choices()) == ["piece-B", "piece-N"]
    p.choose("piece-N")
    expect(page.locator("#status")).to_contain_text("drop the Knight")
    choices = page.locator("#board .sq.choice").count()
    assert choices > 20, choices
    p.shot("royal-magician-drop")
    p.click("c5")
    p.wait_plies(1)
    assert p.last_san() == "Kf4/N@c5", p.last_san()
    assert p.piece_on("c5") == "white-N"
    tray = page.locator('.tray[data-carrier="f4"] img.reserve-piece')
    expect(tray).to_have_count(2)
    # Castling.
    p.new_game("royal-magician", fen="r2mk2r/pppppppp/8/8/8/8/PPPPPPPP/R2MK2R w KQkq - 0 1")
    p.move("e1", "g1", "O-O")
    # A game to its end.
    p.new_game("royal-magician", fen="7k/5ppp/8/8/8/8/8/R3K3 w - - 0 1")
    p.move("a1", "a8", "Ra8#")
    p.expect_result("White wins by checkmate", "1-0")


def features(p):
    page = p.page
    # Two people, a clock.
    p.new_game("chess", clock="60+0")
    bottom = page.locator("#player-bottom .clock")
    top = page.locator("#player-top .clock")
    expect(bottom).to_have_text("1:00")
    p.move("e2", "e4", "e4")
    expect(top).to_have_class(re.compile(r"\brunning\b"))
    page.wait_for_timeout(1500)
    assert top.text_content() != "1:00", top.text_content()
    assert bottom.text_content() == "1:00"
    # Keyboard: a move typed in SAN.
    page.fill("#move-input", "e5")
    page.press("#move-input", "Enter")
    p.wait_plies(2)
    expect(bottom).to_have_class(re.compile(r"\brunning\b"))
    # Selecting, then Escape.
    p.click("g1")
    expect(page.locator("#board .sq.target")).to_have_count(3)
    page.keyboard.press("Escape")
    expect(page.locator("#board .sq.target")).to_have_count(0)
    # Flip.
    page.click("#flip-button")
    assert page.locator("#board .sq").first.get_attribute("data-square") == "h1"
    page.keyboard.press("f")
    assert page.locator("#board .sq").first.get_attribute("data-square") == "a8"
    # FEN: shown, and set up from the dialog.
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    page.click("#setup-button")
    page.fill("#fen-text", fen)
    page.click("#fen-load")
    expect(page.locator("#fen-field")).to_have_value(fen)
    # A bad FEN is refused in the dialog, and the game stays.
    page.click("#setup-button")
    page.fill("#fen-text", "not a fen")
    page.click("#fen-load")
    expect(page.locator("#fen-error")).to_contain_text("FEN")
    page.click("#fen-dialog .cancel")
    expect(page.locator("#fen-field")).to_have_value(fen)
    # PGN: imported from the dialog, exported by its link; the SVG by its own.
    pgn = '[Variant "deathmatch"]\n\n1. e4 e5 2. Bc1=M Bc8=M 3. d4 *\n'
    page.click("#import-button")
    page.fill("#pgn-text", pgn)
    page.click("#pgn-load")
    p.wait_plies(5)
    assert p.sans() == ["e4", "e5", "Bc1=M", "Bc8=M", "d4"]
    expect(page.locator("#move-list")).to_contain_text("Bc8=M")
    href = page.locator("#pgn-link").get_attribute("href")
    exported = page.request.get(urljoin(page.url, href))
    assert exported.ok and "1. e4 e5 2. Bc1=M Bc8=M 3. d4" in exported.text(), exported.text()
    assert '[Variant "deathmatch"]' in exported.text()
    with page.expect_download() as download:
        page.click("#svg-link")
    path = download.value.path()
    svg = open(path, encoding="utf-8").read()
    assert svg.startswith("<svg") and 'data-piece="Magician"' in svg
    # Take back one move between two people.
    page.click("#undo-button")
    p.wait_plies(4)
    # Analysis: lines, the bar, and new lines after the person moves.
    page.check("#analysis-toggle")
    expect(page.locator("#eval-bar")).to_be_visible()
    page.select_option("#multipv-select", "2")
    expect(page.locator("#lines li")).to_have_count(2)
    expect(page.locator("#eval-text")).to_have_text(re.compile(r"^[-+#]"))
    p.shot("analysis")
    p.move("d2", "d4", "d4")
    page.wait_for_function(
        "() => document.querySelectorAll('#lines li').length === 2", timeout=TIMEOUT
    )
    state = p.state()
    legal = {m["san"] for m in state["legal"]}
    firsts = page.locator("#lines li .first").all_text_contents()
    assert firsts and all(f in legal for f in firsts), (firsts, sorted(legal))
    # A line's first move plays it.
    page.locator("#lines li .first").first.click()
    p.wait_plies(6)
    page.uncheck("#analysis-toggle")
    expect(page.locator("#eval-bar")).to_be_hidden()
    # Resign, with its confirmation.
    page.once("dialog", lambda d: d.accept())
    page.click("#resign-button")
    expect(page.locator("#status")).to_contain_text("by resignation")
    # The result is in the move list too.
    expect(page.locator("#move-list tr.result")).to_have_count(1)


def live(p):
    """A game against magus with the lines beside it, two tabs on one game, and the
    promises of the panel (Backspace, the draw offer, the New game dialog)."""
    page = p.page
    # Analysis beside a game against magus: the game goes on, magus still answers.
    p.new_game("chess", "engine-black", level=1)
    page.check("#analysis-toggle")
    expect(page.locator("#lines li").first).to_be_visible()
    expect(page.locator("#player-bottom .name")).to_have_text("You")
    expect(page.locator("#player-top .name")).to_contain_text("magus")
    expect(page.locator("#resign-button")).to_be_enabled()
    p.click("e2")
    p.click("e4")
    p.wait_plies(2)
    assert p.sans()[0] == "e4"
    assert p.state()["settings"]["black"] == "engine"
    expect(page.locator("#lines li").first).to_be_visible()
    page.uncheck("#analysis-toggle")
    expect(page.locator("#analysis")).to_be_hidden()
    # Backspace takes back (to the person's move, against magus).
    page.keyboard.press("Backspace")
    p.wait_plies(0)
    # Two tabs on one game: New game in the second leaves the first one's game alone.
    p.new_game("chess")
    p.move("d2", "d4", "d4")
    second = page.context.new_page()
    second.goto(page.url)
    second.wait_for_selector("#board .sq")
    other = Page(second, p.url, p.shots)
    assert other.plies() == 1
    other.new_game("chess", "engine-white", level=1)
    p.move("d7", "d5", "d5")
    expect(page.locator("#notice")).to_be_hidden()
    second.close()
    # Browsing: the arrow keys and the move list show earlier positions; End returns.
    page.check("#sound-toggle")
    p.move("g1", "f3", "Nf3")
    # The move glides to its square, with a sound.
    assert "transform" in page.locator('#board [data-square="f3"] img.piece').evaluate("i => i.style.transition")
    expect(page.locator("body")).to_have_attribute("data-move-sounds", "1")
    status = page.locator("#status")
    page.keyboard.press("ArrowLeft")
    expect(status).to_have_attribute("data-browsing", "2")
    assert p.piece_on("g1") == "white-N" and p.piece_on("f3") is None
    page.keyboard.press("ArrowLeft")
    expect(status).to_have_attribute("data-browsing", "1")
    assert p.piece_on("d7") == "black-P" and p.piece_on("d5") is None
    p.click("e7")
    expect(page.locator("#board .sq.target")).to_have_count(0)
    page.keyboard.press("ArrowRight")
    expect(status).to_have_attribute("data-browsing", "2")
    page.keyboard.press("End")
    expect(status).to_have_attribute("data-browsing", "")
    assert p.piece_on("f3") == "white-N"
    page.locator('#move-list td.san[data-ply="1"]').click()
    expect(status).to_have_attribute("data-browsing", "1")
    page.locator('#move-list td.san[data-ply="3"]').click()
    expect(status).to_have_attribute("data-browsing", "")
    p.move("g8", "f6", "Nf6")
    # A draw offered between two people waits for the other side.
    page.click("#draw-button")
    expect(page.locator("#draw-button")).to_have_text("Accept draw (Black)")
    assert p.state()["result"] is None
    p.move("c2", "c4", "c4")
    expect(page.locator("#draw-button")).to_have_text("Accept draw (Black)")
    # Black plays on: the offer is declined. White offers again, Black accepts.
    p.move("e7", "e6", "e6")
    expect(page.locator("#draw-button")).to_have_text("Offer draw")
    page.click("#draw-button")
    expect(page.locator("#draw-button")).to_have_text("Accept draw (Black)")
    page.click("#draw-button")
    p.expect_result("Draw by agreement", "1/2-1/2")
    # An earlier position opens on an analysis board.
    page.keyboard.press("Home")
    expect(status).to_have_attribute("data-browsing", "0")
    game_before = p.state()["id"]
    page.click("#analyse-here")
    page.wait_for_function("old => !location.hash.endsWith('=' + old)", arg=game_before)
    fresh = p.state()
    assert fresh["settings"]["analysis"] and fresh["moves"] == [], fresh["settings"]
    assert fresh["fen"].startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"), fresh["fen"]
    # The game left is among the saved games, and opens again from the list.
    page.click("#games-button")
    page.locator(f'#saved-games button[data-game="{game_before}"]').click()
    page.wait_for_function("id => location.hash === '#game=' + id", arg=game_before)
    assert len(p.sans()) == 6, p.sans()
    # The New game dialog offers the Magi payoff for Magi only, a time a move only
    # without a clock.
    page.click("#new-game-button")
    page.select_option("#ng-variant", "chess")
    page.select_option("#ng-opponent", "engine-black")
    expect(page.locator("#ng-scoring-label")).to_be_hidden()
    page.select_option("#ng-clock", "300+3")
    expect(page.locator("#ng-movetime-label")).to_be_hidden()
    page.select_option("#ng-variant", "magi")
    expect(page.locator("#ng-scoring-label")).to_be_visible()
    page.click("#new-game-dialog .cancel")
    # A mate found is shown as a mate, not as depth 127.
    p.new_game("chess", "analysis", fen="6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    expect(page.locator("#lines li .score").first).to_have_text("#1")
    expect(page.locator("#lines li .depth").first).not_to_have_text(re.compile(r"d1\d\d"))
    # While the server does not answer, the page says so in words (not "Failed to fetch"),
    # and goes on when it answers again.
    page.route("**/api/**", lambda route: route.abort())
    page.fill("#move-input", "Ra8#")
    page.press("#move-input", "Enter")
    expect(page.locator("#notice")).to_contain_text("magus does not answer")
    expect(page.locator("#notice")).not_to_contain_text("Failed to fetch")
    page.unroute("**/api/**")
    page.press("#move-input", "Enter")
    p.wait_plies(1)
    expect(page.locator("#notice")).to_be_hidden()


SCENARIOS = {
    "live": live,
    "chess": chess,
    "deathmatch": deathmatch,
    "deathmatch-legacy": deathmatch_legacy,
    "magi": magi,
    "magician-chess": magician_chess,
    "royal-magician": royal_magician,
    "features": features,
}


def main():
    args = sys.argv[1:]
    shots = None
    if "--shots" in args:
        i = args.index("--shots")
        shots = args[i + 1]
        del args[i : i + 2]
    url, names = args[0], args[1:]
    failed = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-quic",
            ],
        )
        for name in names:
            context = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            page.wait_for_selector("#board .sq")
            try:
                SCENARIOS[name](Page(page, url, shots))
                assert not errors, f"errors on the page: {errors}"
                print(f"ok: {name}")
            except Exception as e:  # noqa: BLE001 - every failure is reported, then the next runs
                failed.append(name)
                print(f"FAILED: {name}: {type(e).__name__}: {e}")
                import traceback; traceback.print_exc()
                if shots:
                    page.screenshot(path=os.path.join(shots, f"failed-{name}.png"))
            context.close()
        browser.close()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

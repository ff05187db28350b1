// magus gui: the page. It draws what the server sends and sends back what the person
// chooses; it knows no rules. Every legal move comes from the server with its structure
// (from, to, kind, aux square, piece, SAN, wire form); the page groups them by from-square
// (a spell's from-square is its hole) and asks the person to choose when several moves share
// from and to: the promotion piece, carry or drop, the piece to drop and then its square, the
// Magician to promote and then what it becomes.
"use strict";

const S = {
  variants: [],
  game: null,
  flipped: false,
  selected: null,      // the square whose moves are shown
  step: null,          // a choice of squares under way: {squares, prompt, pick(square)}
  pending: null,       // the move being chosen, drawn on its target meanwhile: {from, to}
  browse: null,        // an earlier position shown instead of the game's: {ply, fen, side, board}
  droppedOn: null,     // the square a piece was just dropped on (not animated again)
  drag: null,          // a piece being dragged: {from, x, y, started}
  receivedAt: 0,       // when the game was last received (for the clocks)
  pollTimer: null,
  busy: false,
};

const $ = (sel) => document.querySelector(sel);

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c) e.append(c);
  return e;
}

// ---------------------------------------------------------------- talking to the server

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response, text;
  try {
    response = await fetch(path, options);
    text = await response.text();
  } catch (_) {
    // The browser's own words ("Failed to fetch") say nothing to a person.
    throw new Error("magus does not answer: the server has stopped or is restarting. Start `magus gui` again; saved games come back.");
  }
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = { error: text }; }
  if (!response.ok) throw new Error((data && data.error) || `${response.status} ${response.statusText}`);
  return data;
}

function gamePath(suffix = "") {
  return `/api/games/${S.game.id}${suffix}`;
}

function setGame(game) {
  const changedGame = !S.game || S.game.id !== game.id;
  const newPosition = changedGame || S.game.fen !== game.fen || S.game.moves.length !== game.moves.length;
  const oneMoveMore = !changedGame && game.moves.length === S.game.moves.length + 1;
  if (changedGame || (S.browse && S.browse.ply >= game.moves.length)) S.browse = null;
  S.game = game;
  S.receivedAt = performance.now();
  if (newPosition) {
    S.selected = null;
    S.step = null;
    S.pending = null;
    closeChooser();
    // An error was about a position that is gone: a later good move clears it.
    if ($("#notice").dataset.kind === "error") showNotice("", false);
  }
  if (changedGame) history.replaceState(null, "", `#game=${game.id}`);
  render();
  if (oneMoveMore) {
    const last = game.board.last;
    if (!S.browse && last && S.droppedOn !== last.to) animateMove(last.from, last.to);
    moveSound();
  }
  S.droppedOn = null;
  schedulePoll();
}

// The piece of the move just made glides from its square to its new one (a dragged piece
// is already there).
function animateMove(from, to) {
  const a = document.querySelector(`#board [data-square="${from}"]`);
  const b = document.querySelector(`#board [data-square="${to}"]`);
  const img = b && b.querySelector("img.piece");
  if (!a || !img || from === to) return;
  const ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
  img.style.transition = "none";
  img.style.transform = `translate(${ra.left - rb.left}px, ${ra.top - rb.top}px)`;
  img.getBoundingClientRect();
  img.style.transition = "transform 0.18s ease-out";
  img.style.transform = "";
  img.classList.add("moving");
  setTimeout(() => img.classList.remove("moving"), 200);
}

// A short click for every move, when Sound is ticked (kept in the browser for next time).
function moveSound() {
  if (!$("#sound-toggle").checked) return;
  try {
    const ctx = S.audio || (S.audio = new AudioContext());
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 520;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.12);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.12);
    document.body.dataset.moveSounds = String((Number(document.body.dataset.moveSounds) || 0) + 1);
  } catch (_) { /* no sound here: the game goes on */ }
}

// ---------------------------------------------------------------- browsing the game

function shownPly() { return S.browse ? S.browse.ply : S.game.moves.length; }

function shownBoard() { return S.browse ? S.browse.board : S.game.board; }

// Shows the position after the first `ply` moves; the last one is the game itself.
async function browseTo(ply) {
  const g = S.game;
  if (!g) return;
  ply = Math.max(0, Math.min(g.moves.length, ply));
  S.selected = null;
  S.step = null;
  S.pending = null;
  closeChooser();
  if (ply === g.moves.length) { S.browse = null; render(); return; }
  try {
    const position = await api("GET", gamePath(`/ply/${ply}`));
    if (S.game && S.game.id === g.id) { S.browse = position; render(); }
  } catch (e) {
    showNotice(e.message, true);
  }
}

// An analysis board from the position browsed (the game stays among the saved games).
function analyseHere() {
  const g = S.game;
  startGame({ variant: g.variant, white: "human", black: "human", analysis: true,
    multipv: parseInt($("#multipv-select").value, 10), fen: S.browse.fen })
    .catch((e) => showNotice(e.message, true));
}

function schedulePoll() {
  clearTimeout(S.pollTimer);
  const g = S.game;
  if (!g) return;
  const engineBusy = g.engine.thinking || g.engine.analysing;
  const clockRuns = g.clock && g.clock.running && !g.result;
  if (!engineBusy && !clockRuns) return;
  S.pollTimer = setTimeout(poll, engineBusy ? 250 : 1000);
}

async function poll() {
  if (!S.game) return;
  const id = S.game.id;
  try {
    const game = await api("GET", `/api/games/${id}`);
    if (!S.game || S.game.id !== id) return;
    if (game.version !== S.game.version) setGame(game);
    else { S.receivedAt = performance.now(); S.game.clock = game.clock; schedulePoll(); }
  } catch (e) {
    showNotice(e.message, true);
    S.pollTimer = setTimeout(poll, 2000);
  }
}

async function act(method, suffix, body) {
  try {
    const game = await api(method, gamePath(suffix), body);
    setGame(game);
    return true;
  } catch (e) {
    showNotice(e.message, true);
    return false;
  }
}

let noticeTimer = null;
function showNotice(text, isError) {
  const n = $("#notice");
  n.textContent = text;
  n.hidden = !text;
  n.dataset.kind = isError ? "error" : "info";
  clearTimeout(noticeTimer);
  if (text && isError) noticeTimer = setTimeout(() => { n.hidden = true; }, 8000);
}

// ---------------------------------------------------------------- the board

function variantOf(game) { return S.variants[game.variant_index]; }

function pieceUrl(color, kind) {
  return `${variantOf(S.game).images}${color[0]}${kind}.svg`;
}

function pieceName(kind) {
  const p = variantOf(S.game).pieces[kind];
  return p ? p.name : "?";
}

function squareName(file, rank) { return String.fromCharCode(97 + file) + (rank + 1); }

function parseSquare(name) {
  return { file: name.charCodeAt(0) - 97, rank: parseInt(name.slice(1), 10) - 1 };
}

function canMove() {
  const g = S.game;
  return g && !S.browse && !g.result && g.to_move === "human";
}

function movesFrom(square) {
  if (!canMove()) return [];
  return S.game.legal.filter((m) => m.from === square);
}

function sizeBoard(files, ranks, trays) {
  // Room for the panel (beside the board on a wide window), the coordinates, the evaluation
  // bar and the reserve trays (about 3.2 squares wide).
  const wide = window.innerWidth > 980;
  const availW = (wide ? window.innerWidth - 500 : window.innerWidth - 80);
  const availH = window.innerHeight - 170;
  const across = files + (trays ? 3.3 : 0);
  const sq = Math.max(34, Math.min(84, Math.floor(Math.min(availW / across, availH / ranks))));
  document.documentElement.style.setProperty("--sq", `${sq}px`);
}

function renderBoard() {
  const g = S.game;
  const b = shownBoard();
  const board = $("#board");
  board.style.setProperty("--files", b.files);
  board.style.setProperty("--ranks", b.ranks);
  sizeBoard(b.files, b.ranks, b.reserves.length > 0);
  const pieces = new Map(b.pieces.map((p) => [p.square, p]));
  // While the person chooses (a promotion, a Magician, carry or drop), the piece stands on
  // the square it goes to.
  const pending = S.pending && pieces.get(S.pending.from);
  if (pending && S.pending.from !== S.pending.to) {
    pieces.delete(S.pending.from);
    pieces.set(S.pending.to, pending);
  }
  // The pieces that can turn into another on their own square (Deathmatch's swap-in),
  // marked before they are selected.
  const swaps = new Map();
  for (const m of canMove() ? g.legal : []) {
    if (m.from === m.to && m.piece) swaps.set(m.from, m.piece.kind);
  }
  const holes = new Set(b.holes);
  const last = new Set();
  if (b.last) { last.add(b.last.from); last.add(b.last.to); if (b.last.aux) last.add(b.last.aux); }
  const targets = new Map();
  if (S.selected) {
    for (const m of movesFrom(S.selected)) targets.set(m.to, m);
  }
  const choices = new Set(S.step ? S.step.squares : []);
  const cells = [];
  for (let r = 0; r < b.ranks; r++) {
    const rank = S.flipped ? r : b.ranks - 1 - r;
    cells.push(el("div", { class: "coord rank", text: String(rank + 1) }));
    for (let c = 0; c < b.files; c++) {
      const file = S.flipped ? b.files - 1 - c : c;
      const name = squareName(file, rank);
      const light = (file + rank) % 2 === 1;
      const classes = ["sq", light ? "light" : "dark"];
      if (holes.has(name)) classes.push("hole");
      if (last.has(name)) classes.push("last");
      if (b.check === name) classes.push("check");
      if (S.selected === name) classes.push("selected");
      if (targets.has(name)) classes.push("target");
      if (pieces.has(name)) classes.push("occupied");
      if (choices.has(name)) classes.push("choice");
      if (S.drag && S.drag.started && S.drag.from === name) classes.push("dragging");
      const p = pieces.get(name);
      const title = holes.has(name) ? `${name}: hole` : p ? `${name}: ${p.color} ${p.name}` : name;
      const cell = el("div", { class: classes.join(" "), "data-square": name, title, role: "gridcell" });
      if (p) {
        cell.append(el("img", {
          class: "piece", src: pieceUrl(p.color, p.kind), alt: `${p.color} ${p.name}`,
          "data-piece": `${p.color}-${p.letter}`, draggable: "false",
        }));
      }
      if (swaps.has(name) && !(S.drag && S.drag.started && S.drag.from === name)) {
        const kind = swaps.get(name);
        const how = S.selected === name ? "click again" : "click it twice";
        cell.append(el("img", { class: "badge" + (S.selected === name ? " armed" : ""), src: pieceUrl(g.side, kind), alt: "swap", title: `${how}: becomes a ${pieceName(kind)}` }));
      }
      cells.push(cell);
    }
  }
  cells.push(el("div", { class: "coord" }));
  for (let c = 0; c < b.files; c++) {
    const file = S.flipped ? b.files - 1 - c : c;
    cells.push(el("div", { class: "coord file", text: String.fromCharCode(97 + file) }));
  }
  board.replaceChildren(...cells);
}

function renderTrays() {
  const g = S.game;
  const top = S.flipped ? "white" : "black";
  const make = (color) => shownBoard().reserves
    .filter((r) => r.color === color)
    .map((r) => el("div", { class: "tray", "data-color": r.color, "data-carrier": r.square,
        title: `${cap(r.color)}'s ${pieceName(r.carrier)} on ${r.square} holds: ${r.holds.map(pieceName).join(", ") || "nothing"}` },
      el("img", { class: "carrier", src: pieceUrl(r.color, r.carrier), alt: pieceName(r.carrier) }),
      ...r.holds.map((k) => el("img", { class: "reserve-piece", src: pieceUrl(r.color, k), alt: pieceName(k), "data-kind": String(k) }))));
  $("#trays-top").replaceChildren(...make(top));
  $("#trays-bottom").replaceChildren(...make(top === "white" ? "black" : "white"));
}

function other(color) { return color === "white" ? "black" : "white"; }

function cap(s) { return s.charAt(0).toUpperCase() + s.slice(1); }

// ---------------------------------------------------------------- players and clocks

function playerLabel(color) {
  const s = S.game.settings;
  const who = s[color];
  if (s.analysis) return cap(color);
  if (who === "engine") return `magus · level ${s.level}`;
  const humans = ["white", "black"].filter((c) => s[c] === "human").length;
  return humans === 1 ? "You" : cap(color);
}

function formatClock(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

function clockMs(color) {
  const c = S.game.clock;
  if (!c) return null;
  let ms = c[`${color}_ms`];
  if (c.running === color && !S.game.result) ms -= performance.now() - S.receivedAt;
  return ms;
}

function renderPlayers() {
  const g = S.game;
  const top = S.flipped ? "white" : "black";
  const bottom = top === "white" ? "black" : "white";
  for (const [id, color] of [["#player-top", top], ["#player-bottom", bottom]]) {
    const box = $(id);
    box.className = `player ${color}` + (!g.result && g.side === color ? " to-move" : "");
    box.dataset.color = color;
    box.querySelector(".name").textContent = playerLabel(color);
  }
  renderClocks();
}

function renderClocks() {
  const g = S.game;
  if (!g) return;
  for (const id of ["#player-top", "#player-bottom"]) {
    const box = $(id);
    const color = box.dataset.color;
    const clock = box.querySelector(".clock");
    const ms = clockMs(color);
    if (ms === null) { clock.textContent = ""; continue; }
    clock.textContent = formatClock(ms);
    clock.classList.toggle("running", !!(g.clock.running === color && !g.result));
    clock.classList.toggle("low", ms < 10000 && !!g.clock.running);
    if (ms <= 0 && g.clock.running === color && !g.result) {
      // The server decides the flag: ask it now.
      clearTimeout(S.pollTimer);
      S.pollTimer = setTimeout(poll, 50);
    }
  }
}

// ---------------------------------------------------------------- the panel

function scoreText(line) {
  const w = line.white_cp;
  if (Math.abs(w) >= 50000) {
    const n = Math.abs(line.score.mate);
    return (w > 0 ? "#" : "-#") + n;
  }
  const v = w / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

// A search that has proved a mate reports the deepest depth it allows (127): no depth a
// person can read; the mate's length says it all.
const MATE_DEPTH = 100;
function depthText(line) { return line.depth >= MATE_DEPTH ? "mate" : `d${line.depth}`; }

function numberedLine(sans) {
  const g = S.game;
  let num = g.start_fullmove + Math.floor((g.moves.length + (g.start_side === "black" ? 1 : 0)) / 2);
  let white = g.side === "white";
  const parts = [];
  sans.forEach((san, i) => {
    if (white) parts.push(`${num}.`);
    else if (i === 0) parts.push(`${num}…`);
    parts.push(san);
    if (!white) num++;
    white = !white;
  });
  return parts;
}

function renderStatus() {
  const g = S.game;
  const status = $("#status");
  status.replaceChildren();
  status.dataset.result = g.result ? g.result.result : "";
  if (S.browse) {
    const ply = S.browse.ply;
    const where = ply === 0 ? "the start" : `move ${ply} (${g.moves[ply - 1].san})`;
    status.textContent = `Looking at the position after ${where} · → or End: back to the game`;
    const here = el("button", { type: "button", class: "analyse-here", id: "analyse-here", text: "Analyse from here" });
    here.addEventListener("click", analyseHere);
    status.append(here);
    status.dataset.browsing = String(ply);
    return;
  }
  status.dataset.browsing = "";
  if (S.step) {
    status.textContent = S.step.prompt;
  } else if (g.result) {
    status.append(el("span", { class: "result", text: `${g.result.text} · ${g.result.result.replace("1/2-1/2", "½-½")}` }));
    if (g.result.payoff) {
      const [w, b] = g.result.payoff;
      status.append(el("span", { class: "payoff", "data-payoff": `${w}-${b}`, text: `Magi payoff: White ${w} – Black ${b}` }));
    }
  } else {
    let text = `${cap(g.side)} to move`;
    if (g.board.check) text += " · check";
    if (g.engine.thinking) text = `magus (${g.side}) is thinking…`;
    if (g.settings.analysis) text = `Analysis · ${text}`;
    status.textContent = text;
  }
  if (g.notice) showNotice(g.notice, false);
  else if ($("#notice").dataset.kind === "info") $("#notice").hidden = true;
}

function renderMoves() {
  const g = S.game;
  const body = $("#move-list tbody");
  const rows = [];
  let num = g.start_fullmove;
  let row = null;
  const blackFirst = g.start_side === "black";
  g.moves.forEach((m, i) => {
    const white = (i % 2 === 0) !== blackFirst;
    if (white || row === null) {
      row = el("tr", {}, el("td", { class: "num", text: `${num}.` }));
      rows.push(row);
      if (!white) row.append(el("td", { class: "san", text: "…" }));
    }
    const cell = el("td", { class: "san" + (i === g.moves.length - 1 ? " current" : "") + (S.browse && i === S.browse.ply - 1 ? " shown" : ""), "data-ply": String(i + 1), text: m.san, title: "show this position" });
    cell.addEventListener("click", () => browseTo(i + 1));
    row.append(cell);
    if (!white) num++;
  });
  // A row with White's move only gets Black's cell too, empty: with two cells the table has
  // two columns, and the number's column would take the room and push White's move right,
  // under where Black's moves stand.
  if (row && row.children.length === 2) row.append(el("td", { class: "san" }));
  if (g.result) rows.push(el("tr", { class: "result" }, el("td", { colspan: "3", text: g.result.result.replace("1/2-1/2", "½-½") })));
  body.replaceChildren(...rows);
  const box = $("#move-list-box");
  if (!S.browse) box.scrollTop = box.scrollHeight;
}

function renderAnalysis() {
  const g = S.game;
  // The lines are shown beside the game: the game goes on, magus still plays its side.
  const on = g.settings.show_lines;
  $("#analysis").hidden = !on;
  $("#eval-bar").hidden = !on;
  $("#analysis-toggle").checked = on;
  $("#multipv-select").value = String(g.settings.multipv);
  if (!on) return;
  const lines = g.engine.lines;
  const best = lines[0];
  if (best) {
    const d = lines.reduce((a, l) => Math.max(a, l.depth), 0);
    const whose = g.engine.thinking ? `magus's own search for its move (level ${g.settings.level}) · ` : "";
    $("#analysis-head").textContent = whose + (d >= MATE_DEPTH ? "mate found" : `depth ${d}`) + ` · ${(best.nodes / 1000).toFixed(0)}k nodes · ${(best.nps / 1000).toFixed(0)}k nodes/s` + (g.engine.analysing || g.engine.thinking ? "" : " · stopped");
  } else {
    $("#analysis-head").textContent = g.result ? "the game is over" : "magus is starting…";
  }
  $("#lines").replaceChildren(...lines.map((l) => {
    const parts = numberedLine(l.san);
    const li = el("li", { "data-multipv": String(l.multipv) },
      el("span", { class: "score", text: scoreText(l) }),
      el("span", { class: "depth", text: depthText(l) }));
    let first = true;
    for (const p of parts) {
      if (/^\d+[.…]$/.test(p)) { li.append(document.createTextNode(` ${p}`)); continue; }
      if (first) {
        li.append(document.createTextNode(" "));
        const span = el("span", { class: "first", text: p, title: "play this move" });
        const wire = l.wire[0];
        span.addEventListener("click", () => { const m = g.legal.find((x) => x.wire === wire); if (m) play(m); });
        li.append(span);
        first = false;
      } else {
        li.append(document.createTextNode(` ${p}`));
      }
    }
    return li;
  }));
  // The bar: White's expected share, 50 % for an even game.
  const bar = $("#eval-bar");
  bar.classList.toggle("flipped", S.flipped);
  if (best) {
    const cp = best.white_cp;
    const share = Math.abs(cp) >= 50000 ? (cp > 0 ? 100 : 0) : 100 / (1 + Math.pow(10, -cp / 400));
    $("#eval-white").style.height = `${share}%`;
    $("#eval-text").textContent = scoreText(best);
    bar.dataset.score = scoreText(best);
  }
}

function renderButtons() {
  const g = S.game;
  const s = g.settings;
  const humans = ["white", "black"].filter((c) => s[c] === "human").length;
  $("#undo-button").disabled = g.moves.length === 0;
  $("#stop-button").disabled = !g.engine.thinking;
  $("#draw-button").disabled = !!g.result || s.analysis || humans === 0;
  // Between two people an offer waits for the other side's answer.
  const offer = g.draw_offer;
  $("#draw-button").textContent = offer ? `Accept draw (${cap(other(offer))})` : "Offer draw";
  $("#draw-button").dataset.offer = offer || "";
  $("#resign-button").disabled = !!g.result || s.analysis || humans === 0;
  $("#move-input").disabled = !canMove();
  $("#fen-field").value = g.fen;
  $("#pgn-link").href = gamePath("/pgn");
  $("#svg-link").href = gamePath("/diagram.svg");
  const v = variantOf(g);
  $("#variant-title").textContent = `${v.title} · ${v.files}×${v.ranks}`;
  document.title = `magus · ${v.title}`;
}

function render() {
  if (!S.game) return;
  renderBoard();
  renderTrays();
  renderPlayers();
  renderStatus();
  renderMoves();
  renderAnalysis();
  renderButtons();
}

// ---------------------------------------------------------------- choosing and playing moves

async function play(m) {
  if (S.busy) return;
  S.busy = true;
  S.selected = null;
  S.step = null;
  S.pending = null;
  closeChooser();
  try {
    await act("POST", "/move", { move: m.wire, ply: S.game.moves.length });
  } finally {
    S.busy = false;
  }
}

function cancelChoice() {
  S.step = null;
  S.pending = null;
  closeChooser();
  render();
}

function closeChooser() {
  const c = $("#chooser");
  c.hidden = true;
  c.replaceChildren();
  document.removeEventListener("keydown", chooserKeys, true);
}

let chooserOptions = [];
function chooserKeys(e) {
  if (e.key === "Escape") { e.preventDefault(); e.stopPropagation(); cancelChoice(); return; }
  const n = parseInt(e.key, 10);
  if (n >= 1 && n <= chooserOptions.length) { e.preventDefault(); e.stopPropagation(); chooserOptions[n - 1].pick(); }
}

// Shows options beside `square`: each {label, image?, kind?, choice, pick()}.
function choose(square, prompt, options) {
  const c = $("#chooser");
  chooserOptions = options;
  const buttons = options.map((o, i) => {
    const b = el("button", { type: "button", class: "option" + (o.kind ? ` ${o.kind}` : ""), "data-choice": o.choice, title: o.title || o.label },
      o.image ? el("img", { src: o.image, alt: o.label }) : null,
      el("span", { text: o.label }),
      el("span", { class: "key", text: String(i + 1) }));
    b.addEventListener("click", (e) => { e.stopPropagation(); o.pick(); });
    return b;
  });
  const cancel = el("button", { type: "button", class: "cancel", "data-choice": "cancel", text: "Cancel (Esc)" });
  cancel.addEventListener("click", cancelChoice);
  c.replaceChildren(el("div", { class: "prompt", text: prompt }), el("div", { class: "options" }, ...buttons), cancel);
  c.hidden = false;
  const cell = document.querySelector(`#board [data-square="${square}"]`);
  const r = cell ? cell.getBoundingClientRect() : { left: 100, top: 100, right: 100, bottom: 100 };
  const cw = c.offsetWidth, ch = c.offsetHeight;
  let left = Math.min(r.right + 8, window.innerWidth - cw - 8);
  let top = Math.min(Math.max(8, r.top), window.innerHeight - ch - 8);
  c.style.left = `${Math.max(8, left)}px`;
  c.style.top = `${top}px`;
  document.addEventListener("keydown", chooserKeys, true);
  buttons[0]?.focus();
}

// Asks the person to click one of `squares` on the board.
function chooseSquare(squares, prompt, pick) {
  closeChooser();
  S.step = { squares, prompt, pick };
  render();
}

const unique = (xs) => [...new Set(xs)];

// Several legal moves share a from- and a to-square: ask which one is meant.
function decide(cands, anchor) {
  if (cands.length === 1) { play(cands[0]); return; }
  const kinds = unique(cands.map((m) => m.kind));
  const g = S.game;
  const mover = g.side;
  if (kinds.every((k) => k === "spell-carry" || k === "spell-drop")) {
    const target = g.board.pieces.find((p) => p.square === cands[0].to);
    const what = target ? `the ${target.color} ${target.name} on ${cands[0].to}` : cands[0].to;
    // Both show the piece; carry with it beside the hole's square, drop with it sinking into
    // a pit (style.css), so that the two pictures differ.
    choose(anchor, `Spell on ${what}:`, cands.map((m) => ({
      label: m.kind === "spell-carry" ? `Carry to ${m.from}` : "Drop into the hole",
      kind: m.kind,
      title: m.kind === "spell-carry" ? `carry ${what} to the hole's square ${m.from} (${m.san})` : `drop ${what} into the hole (${m.san})`,
      image: target ? pieceUrl(target.color, target.kind) : null,
      choice: m.kind === "spell-carry" ? "carry" : "drop",
      pick: () => play(m),
    })));
    return;
  }
  if (kinds.every((k) => k === "promotion")) {
    choose(anchor, "Promote to:", cands.map((m) => ({
      label: pieceName(m.piece.kind), image: pieceUrl(mover, m.piece.kind),
      choice: `piece-${m.piece.letter}`, pick: () => play(m),
    })));
    return;
  }
  if (kinds.every((k) => k === "drop")) {
    // The piece, then the square.
    const pieces = unique(cands.map((m) => m.piece.kind));
    const thenSquare = (kind) => {
      const withPiece = cands.filter((m) => m.piece.kind === kind);
      if (withPiece.length === 1) { play(withPiece[0]); return; }
      chooseSquare(withPiece.map((m) => m.aux), `Click the square to drop the ${pieceName(kind)} on`, (sq) => {
        const m = withPiece.find((x) => x.aux === sq);
        if (m) play(m);
      });
    };
    if (pieces.length === 1) { thenSquare(pieces[0]); return; }
    choose(anchor, "Drop which piece?", pieces.map((k) => {
      const letter = cands.find((m) => m.piece.kind === k).piece.letter;
      return { label: pieceName(k), image: pieceUrl(mover, k), choice: `piece-${letter}`, pick: () => thenSquare(k) };
    }));
    return;
  }
  if (kinds.every((k) => k === "transform" || k === "en-passant-transform")) {
    // The Magician, then what it becomes.
    const thenPiece = (aux) => {
      const here = cands.filter((m) => m.aux === aux);
      S.step = null;
      if (here.length === 1) { play(here[0]); return; }
      render();
      choose(aux, `The Magician on ${aux} becomes:`, here.map((m) => ({
        label: pieceName(m.piece.kind), image: pieceUrl(mover, m.piece.kind),
        choice: `piece-${m.piece.letter}`, pick: () => play(m),
      })));
    };
    const magicians = unique(cands.map((m) => m.aux));
    if (magicians.length === 1) { thenPiece(magicians[0]); return; }
    chooseSquare(magicians, "Click the Magician that is promoted", thenPiece);
    return;
  }
  choose(anchor, "Which move?", cands.map((m, i) => ({
    label: m.san, choice: `move-${i}`, pick: () => play(m),
  })));
}

// Tries the move from `from` to `to`; castling also by clicking the King's own Rook.
function tryMove(from, to) {
  const mine = movesFrom(from);
  let cands = mine.filter((m) => m.to === to);
  if (!cands.length) cands = mine.filter((m) => m.kind === "castle" && m.rook === to);
  if (!cands.length) return false;
  S.selected = null;
  S.pending = { from, to: cands[0].to };
  decide(cands, to);
  return true;
}

// A press on a square. A press on the selected square does nothing yet: it may become a drag
// of that piece, which must move it, and only a click (a release without a drag) counts as
// "the second click on its own square" (Deathmatch's swap-in). Gives whether the pressed
// piece may be dragged.
function pressSquare(square) {
  if (S.step) {
    if (S.step.squares.includes(square)) {
      const pick = S.step.pick;
      S.step = null;
      pick(square);
    } else {
      cancelChoice();
    }
    return false;
  }
  closeChooser();
  if (S.selected === square) return true;
  if (S.selected && tryMove(S.selected, square)) return false;
  if (movesFrom(square).length) { S.selected = square; render(); return true; }
  if (S.selected) { S.selected = null; render(); }
  return false;
}

// A release on the square it was pressed on, without a drag: a click. On a piece that was
// already selected, the second click plays its move to its own square (the swap-in) if it
// has one, else deselects it.
function clickSelected(square, wasSelected) {
  if (!wasSelected || S.selected !== square) return;
  if (tryMove(square, square)) return;
  S.selected = null;
  render();
}

// A dragged piece let go over `to` (null: off the board). Only the move dragged is played;
// a drop where the piece has no move puts it back, deselected, so the next drag starts
// afresh. A drop back on its own square keeps it selected, as a click would.
function dropPiece(from, to) {
  S.droppedOn = to;
  if (to && to !== from && tryMove(from, to)) return;
  if (to !== from) S.selected = null;
  render();
}

function squareAt(x, y) {
  const e = document.elementFromPoint(x, y);
  const cell = e && e.closest && e.closest("#board .sq");
  return cell ? cell.dataset.square : null;
}

function setupBoardInput() {
  const board = $("#board");
  board.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const cell = e.target.closest(".sq");
    if (!cell) return;
    e.preventDefault();
    const square = cell.dataset.square;
    const wasSelected = S.selected === square && !S.step;
    const draggable = pressSquare(square);
    const piece = S.game.board.pieces.some((p) => p.square === square);
    S.drag = draggable && piece
      ? { from: square, x: e.clientX, y: e.clientY, started: false, wasSelected }
      : null;
    // Nothing to drag (a spell's hole): the press is the click.
    if (!S.drag && wasSelected) clickSelected(square, true);
  });
  window.addEventListener("pointermove", (e) => {
    const d = S.drag;
    if (!d) return;
    if (!d.started && Math.hypot(e.clientX - d.x, e.clientY - d.y) > 6) {
      d.started = true;
      const p = S.game.board.pieces.find((q) => q.square === d.from);
      const ghost = el("img", { id: "drag-ghost", src: pieceUrl(p.color, p.kind), alt: "" });
      document.body.append(ghost);
      render();
    }
    if (d.started) {
      const ghost = $("#drag-ghost");
      const half = ghost.offsetWidth / 2;
      ghost.style.left = `${e.clientX - half}px`;
      ghost.style.top = `${e.clientY - half}px`;
    }
  });
  const release = (e) => {
    const d = S.drag;
    S.drag = null;
    if (!d) return;
    if (!d.started) { clickSelected(d.from, d.wasSelected); return; }
    $("#drag-ghost")?.remove();
    dropPiece(d.from, e.type === "pointercancel" ? null : squareAt(e.clientX, e.clientY));
  };
  window.addEventListener("pointerup", release);
  window.addEventListener("pointercancel", release);
}

// ---------------------------------------------------------------- dialogs and buttons

function fillVariants(select) {
  select.replaceChildren(...S.variants.map((v) => el("option", { value: v.name, text: `${v.title} (${v.files}×${v.ranks})` })));
}

function updateNewGameForm() {
  const v = S.variants.find((x) => x.name === $("#ng-variant").value);
  $("#ng-summary").textContent = v ? v.summary : "";
  // The payoff is Magi's own scoring.
  $("#ng-scoring-label").hidden = !(v && v.name === "magi");
  const opponent = $("#ng-opponent").value;
  const engine = opponent !== "humans" && opponent !== "analysis";
  $("#ng-level").disabled = !engine;
  $("#ng-movetime-label").hidden = !engine || $("#ng-clock").value !== "none";
  $("#ng-clock").disabled = opponent === "analysis";
}

function openNewGame() {
  const g = S.game;
  if (g) {
    $("#ng-variant").value = g.variant;
    const s = g.settings;
    $("#ng-opponent").value = s.analysis ? "analysis"
      : s.white === "human" && s.black === "engine" ? "engine-black"
      : s.white === "engine" && s.black === "human" ? "engine-white"
      : s.white === "human" ? "humans" : "engines";
    $("#ng-level").value = String(s.level);
  }
  $("#ng-fen").value = "";
  $("#ng-error").textContent = "";
  updateNewGameForm();
  $("#new-game-dialog").showModal();
}

function newGameRequest() {
  const opponent = $("#ng-opponent").value;
  const request = {
    variant: $("#ng-variant").value,
    white: ["engine-white", "engines"].includes(opponent) ? "engine" : "human",
    black: ["engine-black", "engines"].includes(opponent) ? "engine" : "human",
    level: parseInt($("#ng-level").value, 10),
    movetime_ms: parseInt($("#ng-movetime").value, 10),
    analysis: opponent === "analysis",
    multipv: parseInt($("#multipv-select").value, 10),
  };
  const clock = $("#ng-clock").value;
  if (clock !== "none" && opponent !== "analysis") {
    const [initial, inc] = clock.split("+").map(Number);
    request.clock = { initial_ms: initial * 1000, increment_ms: inc * 1000 };
  }
  if (!$("#ng-scoring-label").hidden) request.scoring = $("#ng-scoring").value;
  const fen = $("#ng-fen").value.trim();
  if (fen) request.fen = fen;
  return request;
}

// The game left behind is not deleted: another tab may show it, and it stays among the
// saved games.
async function startGame(request) {
  const game = await api("POST", "/api/games", request);
  // The person sits on their own side: Black at the bottom when they play Black alone.
  S.flipped = request.white === "engine" && request.black === "human";
  showNotice("", false);
  setGame(game);
}

function setupDialogs() {
  for (const d of document.querySelectorAll("dialog")) {
    d.querySelector(".cancel").addEventListener("click", () => d.close());
  }
  $("#ng-variant").addEventListener("change", updateNewGameForm);
  $("#ng-opponent").addEventListener("change", updateNewGameForm);
  $("#ng-clock").addEventListener("change", updateNewGameForm);
  $("#new-game-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await startGame(newGameRequest());
      $("#new-game-dialog").close();
    } catch (err) {
      $("#ng-error").textContent = err.message;
    }
  });
  $("#new-game-button").addEventListener("click", openNewGame);
  const setUp = loadDialog({
    name: "fen", title: "Set up a position", rows: 3, button: "Load",
    summary: "A FEN of the current variant; the players and the clock stay.",
  });
  const importPgn = loadDialog({
    name: "pgn", title: "Import PGN", rows: 10, button: "Import",
    summary: "The first game is loaded; its Variant tag chooses the variant.",
  });
  $("#setup-button").addEventListener("click", () => setUp(S.game.fen));
  $("#games-button").addEventListener("click", openSavedGames);
  $("#import-button").addEventListener("click", () => importPgn(""));
}

/// A dialog whose text the server loads into the game as `name` (a FEN or a PGN), with the
/// server's reason shown when it refuses; its elements are `#NAME-dialog`, `-text`, `-error`
/// and `-load`. Gives the function that opens it with a text.
function loadDialog({ name, title, summary, rows, button }) {
  const text = el("textarea", { id: `${name}-text`, rows, spellcheck: "false" });
  const error = el("p", { class: "error", id: `${name}-error` });
  const cancel = el("button", { value: "cancel", type: "button", class: "cancel", text: "Cancel" });
  const load = el("button", { id: `${name}-load`, type: "submit", value: "load", text: button });
  const form = el("form", { method: "dialog", id: `${name}-form` },
    el("h2", { text: title }), el("p", { class: "summary", text: summary }), text, error,
    el("div", { class: "dialog-buttons" }, cancel, load));
  const dialog = el("dialog", { id: `${name}-dialog` }, form);
  $("#chooser").before(dialog);
  cancel.addEventListener("click", () => dialog.close());
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      setGame(await api("POST", gamePath("/load"), { [name]: text.value }));
      dialog.close();
    } catch (err) {
      error.textContent = err.message;
    }
  });
  return (initial) => {
    text.value = initial;
    error.textContent = "";
    dialog.showModal();
  };
}

// The games kept on disk, newest first; one click opens one here.
async function openSavedGames() {
  const list = $("#saved-games");
  list.replaceChildren();
  $("#games-dialog").showModal();
  let saved;
  try {
    saved = (await api("GET", "/api/games")).saved;
  } catch (e) {
    list.append(el("li", { class: "error", text: e.message }));
    return;
  }
  if (!saved.length) list.append(el("li", { text: "No game is kept yet (or the server keeps none: see its first lines)." }));
  for (const s of saved) {
    const open = el("button", { type: "button", "data-game": s.id, text: "Open" });
    open.addEventListener("click", () => { $("#games-dialog").close(); openGame(s.id); });
    const result = s.result === "*" ? "going on" : s.result.replace("1/2-1/2", "½-½");
    list.append(el("li", { class: S.game && S.game.id === s.id ? "current" : null },
      el("span", { text: `#${s.id} · ${s.variant} · ${s.white} – ${s.black} · ${s.moves} moves · ${result} · ${s.date}` }), open));
  }
}

async function openGame(id) {
  try {
    const game = await api("GET", `/api/games/${id}`);
    S.flipped = game.settings.white === "engine" && game.settings.black === "human";
    setGame(game);
    return true;
  } catch (e) {
    showNotice(e.message, true);
    return false;
  }
}

async function copyText(text) {
  try { await navigator.clipboard.writeText(text); showNotice("copied", false); }
  catch (_) { showNotice("the browser did not allow copying; select the text instead", true); }
}

function takeBack() { return act("POST", "/undo", {}); }

function setupButtons() {
  $("#flip-button").addEventListener("click", () => { S.flipped = !S.flipped; render(); });
  $("#undo-button").addEventListener("click", takeBack);
  $("#stop-button").addEventListener("click", () => act("POST", "/stop", {}));
  $("#resign-button").addEventListener("click", () => { if (confirm("Resign this game?")) act("POST", "/resign", {}); });
  $("#draw-button").addEventListener("click", () => {
    const offer = S.game.draw_offer;
    act("POST", "/draw", offer ? { side: other(offer) } : {});
  });
  $("#analysis-toggle").addEventListener("change", (e) => act("POST", "/analysis", { on: e.target.checked, multipv: parseInt($("#multipv-select").value, 10) }));
  $("#multipv-select").addEventListener("change", (e) => act("POST", "/analysis", { multipv: parseInt(e.target.value, 10) }));
  $("#copy-fen-button").addEventListener("click", () => copyText(S.game.fen));
  $("#copy-pgn-button").addEventListener("click", async () => {
    const r = await fetch(gamePath("/pgn"));
    copyText(await r.text());
  });
  $("#move-entry").addEventListener("submit", async (e) => {
    e.preventDefault();
    const input = $("#move-input");
    const text = input.value.trim();
    if (!text) return;
    if (await act("POST", "/move", { move: text, ply: S.game.moves.length })) input.value = "";
  });
  document.addEventListener("keydown", (e) => {
    // Keys go to the board unless the person is typing (a tick box takes no text).
    const typing = e.target.closest && e.target.closest("input:not([type=checkbox]), textarea, select, dialog");
    if (e.key === "Escape") {
      if (S.selected || S.step) { S.selected = null; cancelChoice(); }
      return;
    }
    if (typing || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "f") { S.flipped = !S.flipped; render(); }
    else if (e.key === "Backspace") { e.preventDefault(); if (!$("#undo-button").disabled) takeBack(); }
    else if (e.key === "ArrowLeft") { e.preventDefault(); browseTo(shownPly() - 1); }
    else if (e.key === "ArrowRight") { e.preventDefault(); browseTo(shownPly() + 1); }
    else if (e.key === "Home") { e.preventDefault(); browseTo(0); }
    else if (e.key === "End") { e.preventDefault(); browseTo(S.game.moves.length); }
    else if (e.key === "n") openNewGame();
    else if (e.key === "/" ) { e.preventDefault(); $("#move-input").focus(); }
  });
  window.addEventListener("resize", () => { if (S.game) renderBoard(); });
  const sound = $("#sound-toggle");
  sound.checked = localStorage.getItem("magus-sound") === "on";
  sound.addEventListener("change", () => localStorage.setItem("magus-sound", sound.checked ? "on" : "off"));
  setInterval(renderClocks, 100);
}

async function main() {
  setupBoardInput();
  setupDialogs();
  setupButtons();
  try {
    S.variants = await api("GET", "/api/variants");
  } catch (e) {
    showNotice(`cannot reach magus: ${e.message}`, true);
    return;
  }
  fillVariants($("#ng-variant"));
  window.addEventListener("hashchange", () => {
    const id = /game=(\d+)/.exec(location.hash);
    if (id && (!S.game || S.game.id !== id[1])) openGame(id[1]);
  });
  const wanted = /game=(\d+)/.exec(location.hash);
  if (wanted && await openGame(wanted[1])) return;
  await startGame({ variant: "chess", white: "human", black: "engine", level: 8 });
  // Said after the new game is shown, so that its notice is not cleared at once.
  if (wanted) showNotice(`game ${wanted[1]} is not kept here (deleted, or kept in another folder); this is a new game`, true);
}

main();

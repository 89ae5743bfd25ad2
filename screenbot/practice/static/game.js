/* The practice board: classic 2048 rules and animations, seeded like screenbot.game.rules.Game,
   reporting its true state to the server after every key.

   URL options: theme=classic|dark|lines|lines-light|terminal, size=<board px, default 500: the
   scale of the page; the terminal's char cell is 9x18 px at 500>,
   shape=<rows>x<cols> (3 to 8 each, default 4x4: see SHAPE below), seed=<uint32>,
   board=<rows x cols comma-separated values, row-major>, score=<start score>, keep=1 (no win overlay),
   win=<tile that brings the win message, default 2048>,
   dismiss=click|key (the win message's way out: "Keep going" / "Try again" buttons, or no buttons
   and a line "Press Enter to keep going": Enter continues),
   anim=<duration multiplier: 1 classic, 0.5 twice as fast, 0 none; the terminal never animates>,
   scroll=<css px> or scroll=board (centre the board in the window),
   marks=1 (help text and a logo drawn over the board, the same after every move),
   overhang=1 (tiles drawn 3 px, at size 500, larger than their cell on every side),
   keys=arrows|wasd|hjkl (only that key set moves; default: all three),
   report=0 (do not talk to the server). */
"use strict";

(function () {
  // The board's rows and columns. The classic and lines looks keep the board's outer size (its
  // longer side is the board px of the 4x4 board) and scale their cells to fit, as desktop and
  // mobile 2048s do: every shape fits where the 4x4 board fits, and the heading stays as it is. The
  // terminal keeps its character cell (a terminal draws with its font) and its grid grows.
  const SHAPE = shapeOption(new URLSearchParams(window.location.search).get("shape"));
  const ROWS = SHAPE[0], COLS = SHAPE[1], CELLS = ROWS * COLS;
  const CLASSIC_SHAPE = ROWS === 4 && COLS === 4;

  function shapeOption(text) {
    const m = /^\s*([3-8])\s*[xX]\s*([3-8])\s*$/.exec(text || "");
    return m ? [Number(m[1]), Number(m[2])] : [4, 4];
  }

  const KEY_SETS = {
    arrows: { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" },
    wasd: { w: "up", s: "down", a: "left", d: "right", W: "up", S: "down", A: "left", D: "right" },
    hjkl: { k: "up", j: "down", h: "left", l: "right" },
  };

  // The looks: each theme belongs to a family that decides the board's geometry and drawing.
  const THEMES = { classic: "classic", dark: "classic", lines: "lines", "lines-light": "lines", terminal: "terminal" };
  // Board geometry per family, in px at size 500: outer padding, cell size and gap, x and y.
  // lines: 2 px lines around 122 px cells. terminal: a 9x18 px character cell; each tile is
  // 7 characters by 3 lines, the grid is box-drawing characters one character/line wide.
  const GEOMETRY = {
    classic: { padX: 15, padY: 15, cellW: 106.25, cellH: 106.25, gapX: 15, gapY: 15 },
    lines: { padX: 2, padY: 2, cellW: 122, cellH: 122, gapX: 2, gapY: 2 },
    terminal: { padX: 9, padY: 18, cellW: 63, cellH: 54, gapX: 9, gapY: 18 },
  };
  const TERM = { cw: 9, lh: 18, cols: 7, rows: 3 }; // char cell (px at size 500), tile in chars
  const TERM_BOX = 27; // the terminal's message box, in characters

  // The family's geometry for this shape (px at size 500) and `textScale`, the tiles' text and
  // corners against the 4x4 look. Classic: every length scaled so the longer side keeps the 4x4
  // board's length. Lines: the lines stay 2 px, the cells share the rest in whole px.
  function shapedGeometry(family) {
    const g = GEOMETRY[family];
    if (CLASSIC_SHAPE || family === "terminal") return { geo: g, textScale: 1 };
    const n = Math.max(ROWS, COLS);
    const span = (cell, gap, pad, count) => 2 * pad + count * cell + (count - 1) * gap;
    if (family === "lines") {
      const cell = Math.round((span(g.cellW, g.gapX, g.padX, 4) - 2 * g.padX + g.gapX) / n - g.gapX);
      return { geo: Object.assign({}, g, { cellW: cell, cellH: cell }), textScale: cell / g.cellW };
    }
    const k = span(g.cellW, g.gapX, g.padX, 4) / span(g.cellW, g.gapX, g.padX, n);
    const geo = {};
    for (const [name, value] of Object.entries(g)) geo[name] = value * k;
    return { geo, textScale: k };
  }
  const OVERHANG = 3; // px at size 500

  // ---- options -------------------------------------------------------------------------
  const params = new URLSearchParams(window.location.search);

  function numberOption(name, fallback, lo, hi) {
    if (!params.has(name)) return fallback;
    const v = Number(params.get(name));
    if (!Number.isFinite(v)) return fallback;
    return Math.min(hi, Math.max(lo, v));
  }

  function parseBoardOption(text) {
    if (!text) return null;
    const values = text.split(/[,\s/;]+/).filter((t) => t !== "").map((t) => (t === "." ? 0 : Number(t)));
    const ok = values.length === CELLS &&
      values.every((v) => Number.isInteger(v) && (v === 0 || (v >= 2 && v <= 131072 && (v & (v - 1)) === 0)));
    return ok ? values : null;
  }

  function winOption(text) {
    const v = Number(text);
    return text && Number.isInteger(v) && v >= 4 && v <= 131072 && (v & (v - 1)) === 0 ? v : 2048;
  }

  function randomSeed() {
    const a = new Uint32Array(1);
    window.crypto.getRandomValues(a);
    return a[0];
  }

  const keySet = params.get("keys");
  const options = {
    theme: Object.prototype.hasOwnProperty.call(THEMES, params.get("theme")) ? params.get("theme") : "classic",
    size: numberOption("size", 500, 150, 3000),
    seed: params.has("seed") && params.get("seed") !== "" ? (Number(params.get("seed")) >>> 0) : randomSeed(),
    board: parseBoardOption(params.get("board")),
    score: Math.round(numberOption("score", 0, 0, 1e9)),
    keep: params.get("keep") === "1",
    anim: numberOption("anim", 1, 0, 20),
    scroll: params.get("scroll") === "board" ? "board" : numberOption("scroll", 0, 0, 100000),
    report: params.get("report") !== "0",
    marks: params.get("marks") === "1",
    overhang: params.get("overhang") === "1",
    keys: Object.prototype.hasOwnProperty.call(KEY_SETS, keySet) ? keySet : "all",
    win: winOption(params.get("win")),
    dismiss: params.get("dismiss") === "key" ? "key" : "click",
  };
  const family = THEMES[options.theme];
  const { geo, textScale } = shapedGeometry(family);
  const boardW = 2 * geo.padX + COLS * geo.cellW + (COLS - 1) * geo.gapX;
  const boardH = 2 * geo.padY + ROWS * geo.cellH + (ROWS - 1) * geo.gapY;
  const anim = family === "terminal" ? 0 : options.anim; // a terminal redraws, it does not animate
  const DISMISS_KEY = "Enter"; // dismiss=key: the key that continues after the win message
  const KEY_MOVES = options.keys === "all"
    ? Object.assign({}, KEY_SETS.arrows, KEY_SETS.wasd, KEY_SETS.hjkl) : KEY_SETS[options.keys];

  // ---- mulberry32, the same numbers as screenbot.game.rules.Rng --------------------------
  class Rng {
    constructor(seed) { this.state = seed >>> 0; }
    nextU32() {
      this.state = (this.state + 0x6d2b79f5) >>> 0;
      let t = this.state;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (t ^ (t >>> 14)) >>> 0;
    }
    nextFloat() { return this.nextU32() / 4294967296; }
  }

  // ---- the game --------------------------------------------------------------------------
  // A tile: {id, value, pos (cell index, row-major), prev (cell index before the last move or
  // null for a new tile), mergedFrom ([a, b] or null)}.
  let nextTileId = 1;
  function makeTile(value, pos) {
    return { id: nextTileId++, value, pos, prev: null, mergedFrom: null };
  }

  // The cell indices of each line, ordered from the wall the tiles slide toward.
  function linesToward(move) {
    const lines = [];
    const vertical = move === "up" || move === "down";
    const count = vertical ? COLS : ROWS; // the lines
    const length = vertical ? ROWS : COLS; // the cells of each line
    for (let i = 0; i < count; i++) {
      const line = [];
      for (let j = 0; j < length; j++) {
        if (move === "up") line.push(j * COLS + i);
        else if (move === "down") line.push((ROWS - 1 - j) * COLS + i);
        else if (move === "left") line.push(i * COLS + j);
        else line.push(i * COLS + (COLS - 1 - j));
      }
      lines.push(line);
    }
    return lines;
  }

  const game = {
    cells: new Array(CELLS).fill(null),
    score: 0,
    won: false,
    over: false,
    keepGoing: false,
    moves: 0,
    keys: 0,
    number: 0, // games started since the page loaded
    seed: 0,
    rng: null,
    lastGain: 0,
  };

  function grid() {
    const rows = [];
    for (let r = 0; r < ROWS; r++) {
      const row = [];
      for (let c = 0; c < COLS; c++) {
        const t = game.cells[r * COLS + c];
        row.push(t ? t.value : 0);
      }
      rows.push(row);
    }
    return rows;
  }

  function spawnTile() {
    const empty = [];
    for (let i = 0; i < CELLS; i++) if (!game.cells[i]) empty.push(i);
    if (empty.length === 0) return;
    const pos = empty[Math.floor(game.rng.nextFloat() * empty.length)];
    const value = game.rng.nextFloat() < 0.9 ? 2 : 4;
    game.cells[pos] = makeTile(value, pos);
  }

  function slide(cells, move) {
    const next = new Array(CELLS).fill(null);
    let gain = 0;
    let changed = false;
    let madeWin = false;
    for (const line of linesToward(move)) {
      let filled = 0;
      let open = null; // the last tile placed on this line that may still merge
      for (const idx of line) {
        const t = cells[idx];
        if (!t) continue;
        if (open && open.value === t.value) {
          const dest = open.pos;
          const merged = makeTile(t.value * 2, dest);
          merged.mergedFrom = [open, t];
          t.pos = dest;
          next[dest] = merged;
          gain += merged.value;
          if (merged.value === options.win) madeWin = true;
          changed = true;
          open = null;
        } else {
          const dest = line[filled++];
          if (dest !== idx) changed = true;
          t.pos = dest;
          next[dest] = t;
          open = t;
        }
      }
    }
    return { next, gain, changed, madeWin };
  }

  function movesAvailable() {
    for (let i = 0; i < CELLS; i++) {
      const t = game.cells[i];
      if (!t) return true;
      const r = Math.floor(i / COLS), c = i % COLS;
      if (c + 1 < COLS && game.cells[i + 1] && game.cells[i + 1].value === t.value) return true;
      if (r + 1 < ROWS && game.cells[i + COLS] && game.cells[i + COLS].value === t.value) return true;
    }
    return false;
  }

  function terminated() {
    return game.over || (game.won && !game.keepGoing);
  }

  function newGame(startValues, startScore, keep) {
    game.seed = (options.seed + game.number) >>> 0;
    game.number += 1;
    game.rng = new Rng(game.seed);
    game.cells = new Array(CELLS).fill(null);
    game.score = startScore;
    game.won = false;
    game.over = false;
    game.keepGoing = keep;
    game.moves = 0;
    game.lastGain = 0;
    if (startValues) {
      startValues.forEach((v, i) => { if (v) game.cells[i] = makeTile(v, i); });
    } else {
      spawnTile();
      spawnTile();
    }
    game.over = !movesAvailable();
  }

  function play(move, tKey) {
    game.keys += 1;
    if (terminated()) {
      report("ignored", move, tKey);
      return;
    }
    for (const t of game.cells) {
      if (t) { t.prev = t.pos; t.mergedFrom = null; }
    }
    const before = game.cells.slice();
    const { next, gain, changed, madeWin } = slide(game.cells, move);
    if (!changed) {
      for (const t of before) if (t) t.pos = t.prev;
      report("noop", move, tKey);
      return;
    }
    game.cells = next;
    game.score += gain;
    game.lastGain = gain;
    game.moves += 1;
    if (madeWin && !game.keepGoing) game.won = true;
    spawnTile();
    if (!movesAvailable()) game.over = true;
    report("move", move, tKey);
    draw();
  }

  // ---- drawing ---------------------------------------------------------------------------
  const root = document.documentElement;
  const boardEl = document.querySelector(".game-container");
  const gridEl = document.querySelector(".grid-container");
  const tilesEl = document.querySelector(".tile-container");
  const scoreEl = document.querySelector(".score-container");
  const scoreValueEl = document.querySelector(".score-value");
  const bestValueEl = document.querySelector(".best-value");
  const messageEl = document.querySelector(".game-message");
  const messageTextEl = messageEl.querySelector("p");
  const keepButtonEl = messageEl.querySelector(".keep-playing-button");
  const retryButtonEl = messageEl.querySelector(".retry-button");
  const restartButtonEl = document.querySelector(".restart-button");
  const unit = options.size / 500;
  const stepX = unit * (geo.cellW + geo.gapX);
  const stepY = unit * (geo.cellH + geo.gapY);
  let best = 0;
  let shownScore = null;

  function translate(pos) {
    const x = (pos % COLS) * stepX;
    const y = Math.floor(pos / COLS) * stepY;
    return `translate(${x}px, ${y}px)`;
  }

  // Terminal text: one absolutely placed span per character, on the 9x18 px character grid.
  function putChars(parent, col, row, text, className) {
    let c = col;
    for (const ch of text) {
      if (ch !== " ") {
        const span = document.createElement("span");
        span.className = className ? `ch ${className}` : "ch";
        span.style.left = `${unit * TERM.cw * c}px`;
        span.style.top = `${unit * TERM.lh * row}px`;
        span.textContent = ch;
        parent.appendChild(span);
      }
      c += 1;
    }
  }

  // The terminal's grid: box-drawing characters, COLS x (7 + 1) + 1 columns by ROWS x (3 + 1) + 1 lines.
  function buildTerminalFrame() {
    const frame = document.createElement("div");
    frame.className = "term-frame";
    const bar = "\u2500".repeat(TERM.cols);
    const line = (l, m, r) => l + Array(COLS).fill(bar).join(m) + r;
    const rows = [line("\u250c", "\u252c", "\u2510")];
    for (let r = 0; r < ROWS; r++) {
      for (let k = 0; k < TERM.rows; k++) rows.push(("\u2502" + " ".repeat(TERM.cols)).repeat(COLS) + "\u2502");
      rows.push(r < ROWS - 1 ? line("\u251c", "\u253c", "\u2524") : line("\u2514", "\u2534", "\u2518"));
    }
    rows.forEach((text, row) => putChars(frame, 0, row, text));
    boardEl.insertBefore(frame, boardEl.firstChild);
    // The win / game-over message: a double-lined box, 27 x 3 characters centred on the line
    // between the middle rows of tiles (every digit stays in sight); its title sits in the top border.
    const box = document.createElement("div");
    box.className = "box";
    const inner = TERM_BOX - 2;
    putChars(box, 0, 0, "\u2554" + "\u2550".repeat(inner) + "\u2557");
    putChars(box, 0, 1, "\u2551" + " ".repeat(inner) + "\u2551");
    putChars(box, 0, 2, "\u255a" + "\u2550".repeat(inner) + "\u255d");
    messageEl.insertBefore(box, messageEl.firstChild);
  }

  function buildGrid() {
    if (family === "terminal") buildTerminalFrame();
    for (let i = 0; i < CELLS; i++) {
      const cell = document.createElement("div");
      cell.className = "grid-cell";
      cell.style.transform = translate(i);
      if (family === "terminal") putChars(cell, (TERM.cols - 1) / 2, 1, "\u00b7", "dot");
      gridEl.appendChild(cell);
    }
  }

  // marks=1: a line of help text across the bottom row and a logo at the top-right corner,
  // drawn over the board and never redrawn.
  function buildMarks() {
    const marks = document.createElement("div");
    marks.className = "marks";
    const help = "\u2190 \u2191 \u2192 \u2193 to move \u00b7 q to quit";
    if (family === "terminal") {
      const width = COLS * (TERM.cols + 1) + 1;
      putChars(marks, Math.floor((width - help.length) / 2), ROWS * (TERM.rows + 1) - 1, help, "marks-help");
      putChars(marks, width - 5, 1, "\u25c6sb", "marks-logo");
    } else {
      const helpEl = document.createElement("div");
      helpEl.className = "marks-help";
      helpEl.textContent = help;
      helpEl.style.top = `${unit * (geo.padY + (ROWS - 1) * (geo.cellH + geo.gapY) + 0.7 * geo.cellH)}px`;
      const logo = document.createElement("div");
      logo.className = "marks-logo";
      logo.textContent = "S";
      marks.appendChild(helpEl);
      marks.appendChild(logo);
    }
    boardEl.appendChild(marks);
  }

  function addTileElement(tile) {
    const el = document.createElement("div");
    const inner = document.createElement("div");
    const classes = ["tile", tile.value > 2048 ? "tile-super" : `tile-${tile.value}`];
    const text = String(tile.value);
    inner.className = "tile-inner";
    if (family === "terminal") {
      const chars = document.createElement("div");
      chars.className = "term-text";
      putChars(chars, Math.floor((TERM.cols - text.length) / 2), 1, text);
      inner.appendChild(chars);
    } else {
      inner.textContent = text;
    }
    if (family !== "classic") classes.push(`digits-${text.length}`);
    const dest = tile.pos;
    if (tile.prev !== null && tile.prev !== undefined) {
      // No animation: straight to the new place, drawn in the frame after the key, nothing between.
      el.style.transform = translate(anim > 0 ? tile.prev : dest);
      if (anim > 0 && tile.prev !== dest) {
        window.requestAnimationFrame(() => { el.style.transform = translate(dest); });
      }
    } else if (tile.mergedFrom) {
      el.style.transform = translate(dest);
      classes.push("tile-merged");
      for (const source of tile.mergedFrom) addTileElement(source);
    } else {
      el.style.transform = translate(dest);
      classes.push("tile-new");
    }
    el.className = classes.join(" ");
    el.appendChild(inner);
    tilesEl.appendChild(el);
  }

  function drawScore() {
    if (shownScore !== null && game.score > shownScore && game.lastGain > 0) {
      const addition = document.createElement("div");
      addition.className = "score-addition";
      addition.textContent = `+${game.score - shownScore}`;
      scoreEl.appendChild(addition);
    }
    for (const old of scoreEl.querySelectorAll(".score-addition")) {
      if (old.getAnimations().every((a) => a.playState === "finished")) old.remove();
    }
    scoreValueEl.textContent = String(game.score);
    shownScore = game.score;
    best = Math.max(best, game.score);
    bestValueEl.textContent = String(best);
  }

  function drawMessage() {
    messageEl.classList.remove("game-won", "game-over");
    if (game.over) {
      messageTextEl.textContent = "Game over!";
      messageEl.classList.add("game-over");
    } else if (game.won && !game.keepGoing) {
      messageTextEl.textContent = "You win!";
      messageEl.classList.add("game-won");
    }
  }

  let drawPending = false;
  function draw() {
    if (drawPending) return;
    drawPending = true;
    window.requestAnimationFrame(() => {
      drawPending = false;
      tilesEl.textContent = "";
      for (const t of game.cells) if (t) addTileElement(t);
      drawScore();
      drawMessage();
      reportLayoutIfMoved();
    });
  }

  // ---- reporting to the server -----------------------------------------------------------
  const pageId = `${Date.now().toString(36)}-${Math.floor(Math.random() * 1e9).toString(36)}`;
  let seq = 0;
  let sending = Promise.resolve();
  let lastLayoutKey = "";

  function rectOf(el) {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  }

  function layout() {
    const vv = window.visualViewport;
    return {
      board: rectOf(boardEl),
      cells: Array.from(gridEl.children, rectOf),
      score_box: rectOf(scoreEl),
      buttons: {
        "keep-going": rectOf(keepButtonEl),
        "try-again": rectOf(retryButtonEl),
        "new-game": rectOf(restartButtonEl),
      },
      device_pixel_ratio: window.devicePixelRatio,
      inner: [window.innerWidth, window.innerHeight],
      outer: [window.outerWidth, window.outerHeight],
      screen_xy: [window.screenX, window.screenY],
      viewport: vv ? [vv.offsetLeft, vv.offsetTop, vv.width, vv.height, vv.scale] : null,
      scroll: [window.scrollX, window.scrollY],
    };
  }

  function now() {
    return performance.timeOrigin + performance.now();
  }

  function send(payload) {
    if (!options.report) return;
    const body = JSON.stringify(payload);
    // One request at a time, in order: the server sees the reports in the order they happened.
    sending = sending.then(() => fetch("/report", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body,
    })).catch(() => {});
  }

  function report(event, move, tKey) {
    const lay = layout();
    lastLayoutKey = JSON.stringify(lay);
    send({
      page: pageId,
      seq: ++seq,
      event,
      game: game.number,
      seed: game.seed,
      board: grid(),
      score: game.score,
      won: game.won,
      over: game.over,
      keep_going: game.keepGoing,
      moves: game.moves,
      keys: game.keys,
      move: move || null,
      t_key: tKey === undefined ? null : tKey,
      t_report: now(),
      anim,
      theme: options.theme,
      size: options.size,
      shape: [ROWS, COLS],
      marks: options.marks,
      overhang: options.overhang,
      key_set: options.keys,
      win: options.keep ? null : options.win,
      dismiss: options.dismiss,
      layout: lay,
    });
  }

  function reportLayoutIfMoved() {
    const lay = layout();
    const key = JSON.stringify(lay);
    if (key === lastLayoutKey) return;
    lastLayoutKey = key;
    send({ page: pageId, seq: ++seq, event: "layout", game: game.number, t_report: now(), layout: lay });
  }

  // Commands from the server (the test rig): a long poll that waits for the next one.
  async function followCommands() {
    for (;;) {
      try {
        const response = await fetch(`/control?page=${encodeURIComponent(pageId)}`, { cache: "no-store" });
        if (response.status === 200) {
          const command = await response.json();
          if (command.navigate !== undefined) {
            window.location.search = command.navigate;
            return;
          }
          if (command.restart) startNewGame();
          if (command.report) report("state");
        } else if (response.status !== 204) {
          await new Promise((res) => setTimeout(res, 1000));
        }
      } catch (err) {
        await new Promise((res) => setTimeout(res, 2000));
      }
    }
  }

  // ---- input -----------------------------------------------------------------------------
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key === DISMISS_KEY && options.dismiss === "key") {
      event.preventDefault();
      keepGoing();
      return;
    }
    const move = KEY_MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    play(move, performance.timeOrigin + event.timeStamp);
  });

  function startNewGame() {
    newGame(null, 0, false);
    shownScore = null;
    report("start");
    draw();
  }

  function onButton(selector, action) {
    const el = document.querySelector(selector);
    el.addEventListener("click", (event) => { event.preventDefault(); action(); });
  }

  onButton(".restart-button", startNewGame);
  onButton(".retry-button", startNewGame);
  function keepGoing() {
    if (!game.won || game.keepGoing) return;
    game.keepGoing = true;
    report("keep-going");
    draw();
  }
  onButton(".keep-playing-button", keepGoing);

  window.addEventListener("resize", reportLayoutIfMoved);
  window.addEventListener("scroll", reportLayoutIfMoved);

  // ---- start -----------------------------------------------------------------------------
  root.classList.add(`theme-${options.theme}`);
  if (options.dismiss === "key") {
    root.classList.add("dismiss-key");
    messageEl.querySelector(".key-hint").textContent = `Press ${DISMISS_KEY} to keep going`;
  }
  if (family !== "classic") root.classList.add(`family-${family}`, "geo");
  if (!CLASSIC_SHAPE) root.classList.add("shaped");
  if (family !== "classic" || !CLASSIC_SHAPE) {
    for (const [name, value] of Object.entries({ "board-w": boardW, "board-h": boardH, "pad-x": geo.padX,
      "pad-y": geo.padY, "cell-w": geo.cellW, "cell-h": geo.cellH, cw: TERM.cw, lh: TERM.lh })) {
      root.style.setProperty(`--${name}`, String(value));
    }
  }
  if (!CLASSIC_SHAPE) {
    // The messages on another shape: the terminal's box on the line between the middle rows,
    // centred on the board; elsewhere the text and its buttons centred in the board's height.
    const width = COLS * (TERM.cols + 1) + 1;
    const gap = Math.min(59, Math.max(8, (boardH - 100) / 4));
    for (const [name, value] of Object.entries({
      "msg-row": (TERM.rows + 1) * Math.floor(ROWS / 2) - 1, "msg-col": Math.floor((width - TERM_BOX) / 2),
      "msg-top": Math.max(4, (boardH - 100 - gap) / 2), "msg-gap": gap })) {
      root.style.setProperty(`--${name}`, String(value));
    }
  }
  if (options.overhang) {
    root.classList.add("overhang");
    root.style.setProperty("--overhang", String(OVERHANG));
    if (family === "classic") {
      root.style.setProperty("--cell-w", String(geo.cellW));
      root.style.setProperty("--cell-h", String(geo.cellH));
    }
  }
  if (anim === 0) root.classList.add("no-anim");
  root.style.setProperty("--u", String(unit));
  root.style.setProperty("--cu", String(unit * textScale)); // the tiles' text and corners
  root.style.setProperty("--anim", String(anim));
  buildGrid();
  if (options.marks) buildMarks();
  newGame(options.board, options.score, options.keep);
  window.requestAnimationFrame(() => {
    if (options.scroll === "board") {
      const r = boardEl.getBoundingClientRect();
      window.scrollTo(0, Math.max(0, window.scrollY + r.top - (window.innerHeight - r.height) / 2));
    } else if (options.scroll) {
      window.scrollTo(0, options.scroll);
    }
    report("start");
    draw();
    if (options.report) followCommands();
  });
})();

// Start the `2048` of npm `@hypersocial/cli-games` 0.2.5 unmodified in this terminal, reporting its
// true board (see harness.py). $TARGET_PKG_DIR is the installed package; HOME should be a scratch
// folder (the program keeps its update check there).
//
// The game keeps its grid in a closure that nothing outside can reach, and draws the whole screen
// every 25 ms through one process.stdout.write per frame. Each frame draws the 16 cells in order,
// row by row: an empty cell as three rows of eight `░`, a tile as a `▄` row, its name (BIT = 2,
// BYTE = 4, ... TERA = 2048, or the number where it has no name) and a `▀` row; the score stands in
// the `SCORE: 000012` line. This launcher reads the board and score from that text as the game
// writes it (before the terminal sees it, so nothing is read from the screen). A key arriving on
// stdin is handled before the next frame, so the first frame after an arrow key holds the board that
// key made. A frame that still shows "PRESS ANY KEY TO PLAY" writes a "ready" line instead: the
// game starts at the first key after it.
//
// Seeding: the game also draws from Math.random for its effects (particles, screen shake, title
// glitch), on a 25 ms timer, so one seeded stream would give other tiles whenever the timing
// differs. The calls made from its spawnTile() (where the new tiles come from) get a stream of
// their own.
"use strict";

const path = require("path");
const { pathToFileURL } = require("url");
const truthlog = require("./truthlog");

const seed = truthlog.seed();
if (seed !== null) {
  const tiles = truthlog.prng(seed), effects = truthlog.prng(seed ^ 0x5bd1e995);
  Math.random = function () {
    const caller = (new Error().stack || "").split("\n")[2] || "";
    return (/^\s*at spawnTile \(/.test(caller) ? tiles : effects)();
  };
}

const NAMES = { BIT: 2, BYTE: 4, WORD: 8, BLOCK: 16, SECTOR: 32, CLUSTER: 64, SEGMENT: 128, PACKET: 256,
  FRAME: 512, GIGA: 1024, TERA: 2048, PETA: 4096, EXA: 8192 };
const ARROWS = { "\x1b[A": "up", "\x1bOA": "up", "\x1b[B": "down", "\x1bOB": "down",
  "\x1b[C": "right", "\x1bOC": "right", "\x1b[D": "left", "\x1bOD": "left" };
const AT = "\\x1b\\[\\d+;\\d+H", SGR = "\\x1b\\[[\\d;]+m", END = "\\x1b\\[0m";
const EMPTY_ROW = `${AT}\\x1b\\[38;5;238m░{8}${END}`;
const CELL = new RegExp(`(${EMPTY_ROW}${EMPTY_ROW}${EMPTY_ROW})|`
  + `${AT}${SGR}${SGR}▄{8}${END}${AT}${SGR}${SGR}\\x1b\\[1m([^\\x1b]{8})${END}${AT}${SGR}${SGR}▀{8}${END}`, "gu");

/** The 4x4 board a frame draws, or null when it draws none (a menu, the pause screen). */
function boardOf(frame) {
  const cells = [];
  for (const m of frame.matchAll(CELL)) {
    const name = m[1] ? "" : m[2].trim();
    cells.push(m[1] ? 0 : (NAMES[name] || Number(name)));
  }
  if (cells.length !== 16 || cells.some((v) => !Number.isInteger(v))) return null;
  return [0, 1, 2, 3].map((r) => cells.slice(4 * r, 4 * r + 4));
}

let titled = false; // the start screen was seen (and "ready" written)
let started = false; // a board was reported
let last = ""; // the last board reported, as JSON
let pending = null; // the key the game took since the last board frame: a direction, "other" or null

process.stdin.prependListener("data", (data) => { // before the game's own listener
  if (!started) return;
  const text = String(data);
  pending = ARROWS[text] || "other";
});

const write = process.stdout.write.bind(process.stdout);
process.stdout.write = function (chunk, ...rest) {
  const result = write(chunk, ...rest);
  if (typeof chunk === "string") look(chunk);
  return result;
};

function look(frame) {
  if (frame.includes("PRESS ANY KEY TO PLAY")) {
    if (!titled) truthlog.ready();
    titled = true;
    return;
  }
  const board = titled ? boardOf(frame) : null;
  if (board === null) return;
  const score = Number((/SCORE: (\d+)/.exec(frame) || [0, 0])[1]);
  const json = JSON.stringify(board);
  if (!started || (pending === "other" || pending === null) && json !== last) {
    truthlog.newGame(board, score); // the first board, or one made by a restart or an undo
  } else if (pending !== null && pending !== "other") {
    truthlog.move(pending, json !== last, board, score);
  }
  started = true;
  pending = null;
  last = json;
}

process.argv = [process.argv[0], path.join(process.env.TARGET_PKG_DIR, "dist", "cli.js"), "2048"];
import(pathToFileURL(process.argv[1]).href);

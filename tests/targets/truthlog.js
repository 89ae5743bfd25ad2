// What the node launchers share (as truthlog.py for the Python ones): a Math.random seeded from
// $TARGET_SEED (seeded_random.js), and the game's true state appended as JSON lines to $TARGET_TRUTH_LOG.
"use strict";

const fs = require("fs");
const { prng } = require("./seeded_random");

const state = { seq: 0, game: 0 };

/** $TARGET_SEED as a number, or null when it is unset or empty (the game stays random). */
function seed() {
  const text = process.env.TARGET_SEED || "";
  return text === "" ? null : Number(text) >>> 0;
}

/** Replace Math.random with a PRNG seeded from $TARGET_SEED (call before the game's code loads). */
function seedRandom() {
  const value = seed();
  if (value !== null) Math.random = prng(value);
}

function write(record) {
  const path = process.env.TARGET_TRUTH_LOG;
  if (!path) return;
  fs.appendFileSync(path, JSON.stringify(record) + "\n"); // one write of one whole line
}

function board(direction, changed, rows, score) {
  write({
    kind: "board", game: state.game, seq: state.seq, move: direction, changed: Boolean(changed),
    board: rows.map((row) => row.map((v) => Number(v || 0))), score: Number(score), t: Date.now() / 1000,
  });
  state.seq += 1;
}

/** A game started: its first board. */
function newGame(rows, score = 0) {
  state.game += 1;
  board(null, true, rows, score);
}

/** The program took the key for `direction`; `rows` is what it holds now (new tile included). */
function move(direction, changed, rows, score) {
  board(direction, changed, rows, score);
}

/** The program waits for a key (a start screen, or the next move). */
function ready() {
  write({ kind: "ready", t: Date.now() / 1000 });
}

module.exports = { prng, seed, seedRandom, newGame, move, ready };

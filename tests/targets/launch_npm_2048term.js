// Start npm `2048` 0.2.2 (winsonwq/2048term) unmodified in this terminal, reporting its true board
// (see harness.py). $TARGET_PKG_DIR is the installed package; run it in a scratch folder: the game
// reads and writes score.txt in its working folder.
//
// Game.prototype.render draws the board after every move that changed it; the record is written
// before the original runs, because render ends the process at a 2048 or a lost game. A key that
// changes nothing draws nothing: a keypress listener added after the game's reports it.
"use strict";

const path = require("path");
const truthlog = require("./truthlog");

truthlog.seedRandom();
const pkg = process.env.TARGET_PKG_DIR;
const Game = require(path.join(pkg, "lib", "game.js"));
const ARROWS = new Set(["up", "down", "left", "right"]);
const { render, start } = Game.prototype;
let pending = null; // the arrow key the game is handling, until it is reported
let started = false;

Game.prototype.render = function () {
  if (!started) {
    started = true;
    truthlog.newGame(this.table, this.score);
  } else if (pending !== null) {
    truthlog.move(pending, true, this.table, this.score);
    pending = null;
  }
  return render.call(this);
};

Game.prototype.start = function () {
  this.input.prependListener("keypress", (ch, key) => {
    pending = key && ARROWS.has(key.name) ? key.name : null;
  });
  start.call(this);
  this.input.on("keypress", () => { // runs after the game's own listener
    if (pending !== null) {
      truthlog.move(pending, false, this.table, this.score);
      pending = null;
    }
  });
};

require(path.join(pkg, "index.js"));

// Start npm `2048-terminal` 1.0.4 unmodified in this terminal, reporting its true board (see
// harness.py). $TARGET_PKG_DIR is the installed package.
//
// Board.prototype.move handles every arrow key (and WASD), drawing the board before it returns;
// the record follows it. Board.prototype._initBoard starts a game (at start and on R), and the
// game's first board is reported after the draw that follows.
"use strict";

const path = require("path");
const truthlog = require("./truthlog");

truthlog.seedRandom();
const pkg = process.env.TARGET_PKG_DIR;
const Board = require(path.join(pkg, "src", "components", "Board.js"));
const { move, draw, _initBoard } = Board.prototype;
let newGame = false; // a game was set up and its first board is not reported yet

const values = (board) => board.board.map((row) => row.map((block) => block.getValue()));

Board.prototype._initBoard = function () {
  _initBoard.call(this);
  newGame = true;
};

Board.prototype.draw = function () {
  draw.call(this);
  if (newGame) {
    newGame = false;
    truthlog.newGame(values(this), this.score);
  }
};

Board.prototype.move = function (direction) {
  const before = JSON.stringify(values(this));
  move.call(this, direction);
  truthlog.move(String(direction), JSON.stringify(values(this)) !== before, values(this), this.score);
};

require(path.join(pkg, "src", "index.js"));

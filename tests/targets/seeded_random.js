// A seeded Math.random for the harness's JavaScript games: mulberry32, one stream of floats in [0, 1)
// per 32-bit seed. In node, truthlog.js requires it. In a web target's page (served by page_server.py
// as /harness/seeded_random.js, loaded before the game's scripts) it replaces Math.random with the
// stream of the page's ?seed=, when the URL has one.
(function () {
  "use strict";

  /** A PRNG from a 32-bit seed: a function giving floats in [0, 1) as Math.random does. */
  function prng(seed) {
    let s = seed >>> 0;
    return function () {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  if (typeof module !== "undefined" && module.exports) {
    module.exports = { prng };
  } else {
    const seed = new URLSearchParams(location.search).get("seed");
    if (seed !== null && seed !== "") Math.random = prng(Number(seed));
  }
})();

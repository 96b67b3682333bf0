// The rules page's diagrams (rule_diagrams.js), as plain data. The object after `export default`
// is strict JSON: tests/server/static/test_rule_diagrams.py reads it and checks every position and
// every arrow with the rules library, so keep comments out of it.
//
// Each diagram shows one rule point of the rules page (`point`: board, pieces, move, water,
// capture, win) on a position (`fen`, Red to move, Red at the bottom):
//   when     the rule options (as /api/rules gives them) the diagram is for; a diagram without
//            one is shown for every rule set. Where the rule set's own behaviour differs, two
//            diagrams with opposite `when` show each set its own.
//   marks    squares to ring (dens, traps, a blocking rat)
//   arrows   moves to draw: `legal` true (a green arrow: the move is allowed) or false (a red
//            dashed arrow ending in a cross: it is not). `kind` says what a legal move does
//            (step, water, jump, capture, den); `why` is part of the rules library's reason
//            (Board.explain_illegal) why an illegal one is not allowed.
//   caption  the translation key of the words under the board (area rulesdiagram)
// `defaults` are the values of the options that `when` uses when the page has no options
// (the rule sets could not be fetched): those of the default rule set, wango.
export default {
  "defaults": { "ranks": "wolf>dog", "own_rat_blocks_jump": true, "trapped_can_capture": false },
  "diagrams": [
    {
      "id": "board-terrain", "point": "board",
      "fen": "7/7/6e/7/7/7/E6/7/7 w 0 1",
      "marks": ["d1", "c1", "e1", "d2", "d9", "c9", "e9", "d8"],
      "arrows": [],
      "caption": "rulesdiagram.board"
    },
    {
      "id": "pieces-start", "point": "pieces",
      "fen": "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1",
      "marks": [],
      "arrows": [],
      "caption": "rulesdiagram.pieces"
    },
    {
      "id": "move-step", "point": "move",
      "fen": "7/6c/7/7/7/7/7/1W5/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "b2b3", "legal": true, "kind": "step" },
        { "move": "b2c2", "legal": true, "kind": "step" },
        { "move": "b2b1", "legal": true, "kind": "step" },
        { "move": "b2a2", "legal": true, "kind": "step" }
      ],
      "caption": "rulesdiagram.moveStep"
    },
    {
      "id": "move-own-den", "point": "move",
      "fen": "6c/7/7/7/7/7/7/3C3/7 w 0 1",
      "marks": ["d1"],
      "arrows": [
        { "move": "d2d1", "legal": false, "why": "no animal may enter its own den" }
      ],
      "caption": "rulesdiagram.ownDen"
    },
    {
      "id": "water-rat", "point": "water",
      "fen": "6c/7/7/R6/D6/7/7/7/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "a6b6", "legal": true, "kind": "water" },
        { "move": "a5b5", "legal": false, "why": "only the rat may enter the water" }
      ],
      "caption": "rulesdiagram.ratSwims"
    },
    {
      "id": "water-jump", "point": "water",
      "fen": "6c/7/7/7/3L3/7/2T4/7/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "d5a5", "legal": true, "kind": "jump" },
        { "move": "c3c7", "legal": true, "kind": "jump" }
      ],
      "caption": "rulesdiagram.jump"
    },
    {
      "id": "water-block", "point": "water",
      "fen": "6c/7/7/7/Tr5/7/7/7/7 w 0 1",
      "marks": ["b5"],
      "arrows": [
        { "move": "a5d5", "legal": false, "why": "a rat in the water blocks the jump" }
      ],
      "caption": "rulesdiagram.jumpBlocked"
    },
    {
      "id": "water-own-rat-blocks", "point": "water",
      "when": { "own_rat_blocks_jump": true },
      "fen": "6c/7/7/7/TR5/7/7/7/7 w 0 1",
      "marks": ["b5"],
      "arrows": [
        { "move": "a5d5", "legal": false, "why": "a rat in the water blocks the jump" }
      ],
      "caption": "rulesdiagram.ownRatBlocks"
    },
    {
      "id": "water-own-rat-passes", "point": "water",
      "when": { "own_rat_blocks_jump": false },
      "fen": "6c/7/7/7/TR5/7/7/7/7 w 0 1",
      "marks": ["b5"],
      "arrows": [
        { "move": "a5d5", "legal": true, "kind": "jump" }
      ],
      "caption": "rulesdiagram.ownRatPasses"
    },
    {
      "id": "capture-rank", "point": "capture",
      "fen": "6c/7/7/7/7/7/1p5/lT5/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "b2b3", "legal": true, "kind": "capture" },
        { "move": "b2a2", "legal": false, "why": "the red tiger cannot take the lion" }
      ],
      "caption": "rulesdiagram.byRank"
    },
    {
      "id": "capture-wolf-dog", "point": "capture",
      "when": { "ranks": "wolf>dog" },
      "fen": "6c/7/7/7/7/7/d6/W6/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "a2a3", "legal": true, "kind": "capture" }
      ],
      "caption": "rulesdiagram.wolfTakesDog"
    },
    {
      "id": "capture-dog-wolf", "point": "capture",
      "when": { "ranks": "dog>wolf" },
      "fen": "6c/7/7/7/7/7/w6/D6/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "a2a3", "legal": true, "kind": "capture" }
      ],
      "caption": "rulesdiagram.dogTakesWolf"
    },
    {
      "id": "capture-rat-elephant", "point": "capture",
      "fen": "6c/7/7/7/7/7/e6/R6/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "a2a3", "legal": true, "kind": "capture" }
      ],
      "caption": "rulesdiagram.ratTakesElephant"
    },
    {
      "id": "capture-elephant-rat", "point": "capture",
      "fen": "6c/7/7/7/7/7/r6/E6/7 w 0 1",
      "marks": [],
      "arrows": [
        { "move": "a2a3", "legal": false, "why": "the red elephant cannot take the rat" }
      ],
      "caption": "rulesdiagram.elephantSparesRat"
    },
    {
      "id": "capture-in-trap", "point": "capture",
      "fen": "6c/7/7/7/7/7/3R3/3l3/7 w 0 1",
      "marks": ["d2"],
      "arrows": [
        { "move": "d3d2", "legal": true, "kind": "capture" }
      ],
      "caption": "rulesdiagram.trapRankZero"
    },
    {
      "id": "capture-trapped-cannot", "point": "capture",
      "when": { "trapped_can_capture": false },
      "fen": "7/3L3/3c3/7/7/7/7/7/6e w 0 1",
      "marks": ["d8"],
      "arrows": [
        { "move": "d8d7", "legal": false, "why": "stands in an enemy trap and cannot capture" }
      ],
      "caption": "rulesdiagram.trappedCannotCapture"
    },
    {
      "id": "capture-trapped-can", "point": "capture",
      "when": { "trapped_can_capture": true },
      "fen": "7/3L3/3c3/7/7/7/7/7/6e w 0 1",
      "marks": ["d8"],
      "arrows": [
        { "move": "d8d7", "legal": true, "kind": "capture" }
      ],
      "caption": "rulesdiagram.trappedCanCapture"
    },
    {
      "id": "win-den", "point": "win",
      "fen": "2C4/7/7/7/7/7/7/7/6e w 0 1",
      "marks": ["d9"],
      "arrows": [
        { "move": "c9d9", "legal": true, "kind": "den" }
      ],
      "caption": "rulesdiagram.denWins"
    }
  ]
}

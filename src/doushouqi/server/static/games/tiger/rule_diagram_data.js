// The rules page's diagrams for 老虎棋 (app/learn/rule_diagrams.js), as plain data. The object
// after `export default` is strict JSON: tests/server/static/test_rule_diagrams.py reads it and
// checks every position and every arrow with the rules library, so keep comments out of it.
// The fields are Jungle's (games/jungle/rule_diagram_data.js): `point` is the rules page's
// point (board, pieces, move, capture, win), `fen` the position (the side to move's arrows),
// `marks` points to ring, `arrows` moves allowed (`legal` true) or not (with part of the rules
// library's reason, `why`), `caption` the translation key of the words under the board.
// The diagrams of moves show one tiger (the options `men` and `tigers` change only the start,
// which the `pieces` diagrams show for each). `defaults` are the options `when` uses when the
// page has no options (laohuqi's).
export default {
  "defaults": { "diagonals": "none", "men": 12, "tigers": 1 },
  "diagrams": [
    {
      "id": "tiger-board", "point": "board",
      "fen": "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1",
      "marks": ["d9", "e9", "f9", "d10", "e10", "f10", "d11", "e11", "f11"],
      "arrows": [],
      "caption": "tigerdiagram.board"
    },
    {
      "id": "tiger-board-nest-diagonals", "point": "board", "when": { "diagonals": "nest" },
      "fen": "3/1T1/9/9/9/9/9/9/9/9/MMMMMMMMM t 0 1",
      "marks": [],
      "arrows": [
        { "move": "e10d9", "legal": true, "kind": "step" },
        { "move": "e10f11", "legal": true, "kind": "step" }
      ],
      "caption": "tigerdiagram.nestDiagonals"
    },
    {
      "id": "tiger-start", "point": "pieces", "when": { "men": 12, "tigers": 1 },
      "fen": "3/1T1/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1",
      "marks": ["e10", "d2", "e2", "f2"],
      "arrows": [],
      "caption": "tigerdiagram.start"
    },
    {
      "id": "tiger-start-18", "point": "pieces", "when": { "men": 18, "tigers": 1 },
      "fen": "3/1T1/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1",
      "marks": ["e10"],
      "arrows": [],
      "caption": "tigerdiagram.start18"
    },
    {
      "id": "tiger-start-south", "point": "pieces", "when": { "men": 12, "tigers": 2 },
      "fen": "3/T1T/9/9/9/9/9/9/9/3MMM3/MMMMMMMMM t 0 1",
      "marks": ["d10", "f10"],
      "arrows": [],
      "caption": "tigerdiagram.startSouth"
    },
    {
      "id": "tiger-start-south-18", "point": "pieces", "when": { "men": 18, "tigers": 2 },
      "fen": "3/T1T/9/9/9/9/9/9/9/MMMMMMMMM/MMMMMMMMM t 0 1",
      "marks": ["d10", "f10"],
      "arrows": [],
      "caption": "tigerdiagram.startSouth18"
    },
    {
      "id": "tiger-step", "point": "move",
      "fen": "3/3/9/9/9/9/4T4/9/9/9/MMMMMMMMM t 0 1",
      "marks": [],
      "arrows": [
        { "move": "e5e6", "legal": true, "kind": "step" },
        { "move": "e5f5", "legal": true, "kind": "step" },
        { "move": "e5e4", "legal": true, "kind": "step" },
        { "move": "e5d5", "legal": true, "kind": "step" }
      ],
      "caption": "tigerdiagram.step"
    },
    {
      "id": "tiger-step-no-diagonal", "point": "move", "when": { "diagonals": "none" },
      "fen": "3/3/9/9/9/9/4T4/9/9/9/MMMMMMMMM t 0 1",
      "marks": [],
      "arrows": [
        { "move": "e5f6", "legal": false, "why": "not joined by a line" }
      ],
      "caption": "tigerdiagram.noDiagonal"
    },
    {
      "id": "tiger-step-diagonal", "point": "move", "when": { "diagonals": "all" },
      "fen": "3/3/9/9/9/9/4T4/9/9/9/MMMMMMMMM t 0 1",
      "marks": [],
      "arrows": [
        { "move": "e5f6", "legal": true, "kind": "step" },
        { "move": "e5d4", "legal": true, "kind": "step" }
      ],
      "caption": "tigerdiagram.diagonal"
    },
    {
      "id": "tiger-jump", "point": "capture",
      "fen": "3/3/9/9/9/9/4T4/4M4/9/9/MMMMMMMM1 t 0 1",
      "marks": ["e4"],
      "arrows": [
        { "move": "e5e3", "legal": true, "kind": "capture" }
      ],
      "caption": "tigerdiagram.jump"
    },
    {
      "id": "tiger-guarded", "point": "capture",
      "fen": "3/3/9/9/9/9/4T4/4M4/4M4/9/MMMMMMM2 t 0 1",
      "marks": ["e4", "e3"],
      "arrows": [
        { "move": "e5e3", "legal": false, "why": "the landing point e3 is taken" }
      ],
      "caption": "tigerdiagram.guarded"
    },
    {
      "id": "tiger-trapped", "point": "win",
      "fen": "TMM/MM1/3M1M3/9/9/9/9/9/9/9/MMM6 t 0 1",
      "marks": ["d11"],
      "arrows": [],
      "caption": "tigerdiagram.trapped"
    }
  ]
}

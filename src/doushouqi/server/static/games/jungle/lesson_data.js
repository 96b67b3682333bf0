// The lessons of the learn page (lessons.js), as plain data. The object after `export default`
// is strict JSON: tests/server/static/test_lesson_data.py reads it and checks every position and move
// with the rules library, so keep comments out of it.
//
// The learner plays Red under the rule set `rules` (`howto` and `replies`: the translation keys
// of "how to move" and of "the opponent replies", by seat). A lesson is a list of steps; each
// step is one move of the learner:
//   fen    the position the step starts from (Red to move); a step without one continues from
//          where the previous step ended (its move and its reply included)
//   goal   what the move must do; every condition given must hold:
//            from: the square the move starts on        to: the squares it may end on
//            water: it ends in the water                capture: it takes an enemy animal
//            jump: it leaps across a lake               den: it enters the enemy den and wins
//   reply  the opponent's fixed answer, played after a right move (used by continued steps)
// The words live in the translation files: learn.{lesson}.title / .summary for the lesson and
// learn.{lesson}.{n}.text / .goal / .hint / .done for step n (counted from 1).
export default {
  "rules": "wango",
  "howto": ["learn.howto", "learn.howto"],
  "replies": ["learn.reply.red", "learn.reply"],
  "lessons": [
    {
      "id": "movement",
      "icon": ["red", "wolf"],
      "steps": [
        { "fen": "7/c6/7/7/7/7/3W3/7/7 w 0 1", "goal": { "from": "d3", "to": ["d4"] } },
        { "fen": "7/c6/7/7/7/7/7/7/4L2 w 0 1", "goal": { "from": "e1", "to": ["e2"] } },
        { "fen": "7/6d/7/c6/W6/7/7/7/7 w 0 1", "goal": { "from": "a5", "to": ["a6"], "capture": true } }
      ]
    },
    {
      "id": "water",
      "icon": ["red", "rat"],
      "steps": [
        { "fen": "d6/7/7/7/3R3/7/7/7/7 w 0 1", "goal": { "from": "d5", "water": true } },
        { "fen": "d6/7/7/2R4/7/7/7/7/7 w 0 1", "goal": { "from": "c6", "to": ["c7"] } },
        { "fen": "d5c/7/7/7/7/7/2D4/7/7 w 0 1", "goal": { "from": "c3", "to": ["d3"] } }
      ]
    },
    {
      "id": "jumps",
      "icon": ["red", "tiger"],
      "steps": [
        { "fen": "c6/7/7/7/3L3/7/7/7/7 w 0 1", "goal": { "from": "d5", "jump": true } },
        { "fen": "6c/7/7/7/7/7/1T5/7/7 w 0 1", "goal": { "from": "b3", "jump": true } },
        { "fen": "6c/7/7/7/7/3Lr2/7/7/7 w 0 1", "goal": { "from": "d4", "to": ["a4"], "jump": true } }
      ]
    },
    {
      "id": "traps",
      "icon": ["blue", "elephant"],
      "steps": [
        { "fen": "r6/7/7/7/7/7/7/2Ce3/7 w 0 1", "goal": { "from": "c2", "to": ["d2"], "capture": true } },
        { "fen": "6c/7/7/7/7/7/7/7/1Rl4 w 0 1", "goal": { "from": "b1", "to": ["c1"], "capture": true } },
        { "fen": "r6/7/7/7/7/7/7/7/4Dc1 w 0 1", "goal": { "from": "e1", "to": ["f1"], "capture": true } }
      ]
    },
    {
      "id": "rat",
      "icon": ["red", "rat"],
      "steps": [
        { "fen": "6c/7/7/e6/R6/7/7/7/7 w 0 1", "goal": { "from": "a5", "to": ["a6"], "capture": true } },
        { "fen": "6c/7/7/7/r6/E6/7/7/6C w 0 1", "goal": { "from": "a4" } },
        { "fen": "6c/7/7/2Re3/7/7/7/7/7 w 0 1", "goal": { "from": "c6", "to": ["c7"] }, "reply": "d6d7" },
        { "goal": { "from": "c7", "to": ["d7"], "capture": true } }
      ]
    },
    {
      "id": "den",
      "icon": ["blue", "tiger"],
      "steps": [
        { "fen": "7/3D3/7/7/7/7/7/7/6c w 0 1", "goal": { "from": "d8", "den": true } },
        { "fen": "1wT4/7/7/7/7/7/7/7/6c w 0 1", "goal": { "from": "c9", "den": true } }
      ]
    },
    {
      "id": "attack",
      "icon": ["red", "lion"],
      "steps": [
        {
          "fen": "t6/2w2c1/6e/7/5r1/7/E1L1P2/7/7 w 0 1",
          "goal": { "from": "c3", "to": ["c7"], "jump": true },
          "reply": "f8e8"
        },
        { "goal": { "from": "c7", "to": ["c8"], "capture": true }, "reply": "e8e9" },
        { "goal": { "from": "c8", "to": ["c9", "d8"] }, "reply": "e9e8" },
        { "goal": { "den": true } }
      ]
    },
    {
      "id": "raid17",
      "icon": ["red", "elephant"],
      "steps": [
        { "fen": "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w 0 1", "goal": { "from": "a3", "to": ["b3"] }, "reply": "b8b9" },
        { "goal": { "from": "b2", "to": ["b1"] }, "reply": "b9c9" },
        { "goal": { "from": "c3", "to": ["c2"] }, "reply": "c7c8" },
        { "goal": { "from": "e3", "to": ["e2"] }, "reply": "g7g6" },
        { "goal": { "from": "b3", "to": ["c3"] }, "reply": "g6g5" },
        { "goal": { "from": "c3", "to": ["d3"] }, "reply": "g9g8" },
        { "goal": { "from": "d3", "to": ["d4"] }, "reply": "g8g7" },
        { "goal": { "from": "d4", "to": ["d5"] }, "reply": "f8f9" },
        { "goal": { "from": "d5", "to": ["d6"] }, "reply": "a7a6" },
        { "goal": { "from": "d6", "to": ["d7"] }, "reply": "e7e8" },
        { "goal": { "from": "d7", "to": ["c7"] }, "reply": "a6b6" },
        { "goal": { "from": "c7", "to": ["c8"], "capture": true }, "reply": "b6b5" },
        { "goal": { "from": "c8", "to": ["b8"] }, "reply": "b5b4" },
        { "goal": { "from": "b8", "to": ["b9"] }, "reply": "c9c8" },
        { "goal": { "from": "b9", "to": ["b8"] }, "reply": "c8c9" },
        { "goal": { "from": "b8", "to": ["b9"] }, "reply": "b4b3" },
        { "goal": { "from": "b9", "to": ["c9"], "capture": true }, "reply": "b3b2" },
        { "goal": { "from": "c9", "den": true } },
        { "fen": "l6/7/7/7/7/7/7/7/1Ce3L w 0 1", "goal": { "from": "b1", "to": ["c1"], "capture": true } },
        { "fen": "l6/7/7/7/7/3e3/7/3R3/6L w 0 1", "goal": { "from": "d2", "to": ["d3"] } }
      ]
    }
  ]
};

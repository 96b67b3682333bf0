// 老虎棋's lessons for the learn page (app/learn/lessons.js), as plain data. The object after
// `export default` is strict JSON: tests/server/static/test_lesson_data.py reads it and checks
// every position and move with the rules library (doushouqi.tiger), so keep comments out of it.
//
// Under the rule set `rules`, a lesson teaches one side: `seat` 0 the tiger, 1 the men (the
// board's 'red' and 'blue'). Its steps are as in Jungle's lesson_data.js (fen, goal, reply),
// the positions with the learner to move; a goal here may name:
//   from: the point the move starts on     to: the points it may end on
//   step: a one-point step                  capture: a jump that takes a man
//   safe: afterwards the tiger can take no man (a men's move)
//   win:  the move wins the game (the men's: the tiger hemmed in)
// The words live in the translation files, as Jungle's: learn.{lesson}.… (lessons.json).
export default {
  "rules": "laohuqi",
  "howto": ["learn.tiger.howto.tiger", "learn.tiger.howto.men"],
  "replies": ["learn.tiger.reply.tiger", "learn.tiger.reply.men"],
  "lessons": [
    {
      "id": "tiger-jump",
      "icon": ["red", "tiger"],
      "seat": 0,
      "steps": [
        { "fen": "3/3/9/9/9/9/4T4/9/9/9/MMM4MM t 0 1", "goal": { "from": "e5", "to": ["e4"], "step": true } },
        { "fen": "3/3/9/9/9/9/4T4/4M4/9/9/MMM5M t 0 1", "goal": { "from": "e5", "capture": true } },
        { "fen": "3/3/9/9/9/9/4TM3/3MM4/4M4/9/MM7 t 0 1", "goal": { "from": "e5", "to": ["g5"], "capture": true } }
      ]
    },
    {
      "id": "tiger-guard",
      "icon": ["blue", "man"],
      "seat": 1,
      "steps": [
        { "fen": "3/3/9/9/9/4T4/4M4/9/4M4/9/MMM6 m 0 1", "goal": { "from": "e3", "to": ["e4"], "safe": true } },
        { "fen": "3/3/9/9/9/9/2TM5/4M4/9/9/MM6M m 0 1", "goal": { "from": "e4", "to": ["e5"], "safe": true } },
        { "fen": "3/3/9/9/9/4T4/4M4/3MM4/9/9/MM7 m 0 1", "goal": { "safe": true } }
      ]
    },
    {
      "id": "tiger-trap",
      "icon": ["red", "tiger"],
      "seat": 1,
      "steps": [
        { "fen": "1T1/M1M/3MMM3/3MMM3/9/9/9/9/9/9/9 m 0 1", "goal": { "from": "d10", "to": ["d11"] }, "reply": "e11e10" },
        { "goal": { "from": "d9", "to": ["d10"] }, "reply": "e10e11" },
        { "goal": { "from": "d10", "to": ["e10"] }, "reply": "e11f11" },
        { "goal": { "from": "e10", "to": ["e11"], "win": true } }
      ]
    }
  ]
};

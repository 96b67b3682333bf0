"""The terminal game's own words in English and Chinese.

Game terms (animals, sides, endings, readable moves) come from :mod:`doushouqi.jungle.notation`;
this module holds only what the interface says around them.

>>> say("undone", "en", count=2)
'Took back 2 moves.'
>>> say("undone", "zh", count=1)
'悔棋：退回 1 步。'
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from doushouqi.jungle.notation import Lang

__all__ = ["HELP", "MESSAGES", "colon", "default_lang", "parse_lang", "say"]

MESSAGES: dict[str, tuple[str, str]] = {
    # key: (English, Chinese)
    "title": ("Jungle", "斗兽棋"),
    "mode_ai": ("vs computer", "人机对弈"),
    "mode_hotseat": ("two players", "双人对弈"),
    "level": ("level {level}", "等级 {level}"),
    "you_play": ("you play {side}", "你执{side}"),
    "to_move": ("{side} to move", "{side}走棋"),
    "you": ("you", "你"),
    "computer": ("computer", "电脑"),
    "last_move": ("Last move", "上一步"),
    "captured": ("Captured", "被吃"),
    "none": ("none", "无"),
    "moves_title": ("Moves", "棋谱"),
    "no_moves_yet": ("no moves yet", "尚未走棋"),
    "prompt": ("{side}> ", "{side}> "),
    "prompt_over": ("New game? [y/n]> ", "再来一局？[y/n]> "),
    "legend": ("UPPER case Red, lower case Blue, digit = rank", "红 = 红方，蓝 = 蓝方"),
    "ranks": ("Ranks", "战斗力"),
    "help_hint": ("Type a move like g3g4, or help.", "输入走法（如 g3g4），或输入 help 查看命令。"),
    "illegal": ("Illegal move {move}: {reason}", "不能这样走 {move}：{reason}"),
    "unreadable": (
        "Cannot read {text!r}: type a move like g3g4 or g3 g4, or a command (help).",
        "看不懂“{text}”：请输入走法（如 g3g4 或 g3 g4）或命令（help）。",
    ),
    "game_is_over": (
        "The game is over: type new for a new game, undo to take back, or quit.",
        "本局已结束：输入 new 开新局，undo 悔棋，quit 退出。",
    ),
    "nothing_to_undo": ("Nothing to take back.", "没有可以悔的棋。"),
    "undone": ("Took back {count} move{s}.", "悔棋：退回 {count} 步。"),
    "ending_undone": ("The game goes on.", "对局继续。"),
    "hint": ("Hint: {move}", "提示：{move}"),
    "hint_unavailable": (
        "No hint: the engine is not available.",
        "无法提示：引擎不可用。",
    ),
    "engine_missing": (
        "The engine is not available, starting a hot-seat game.",
        "引擎不可用，改为双人同屏对弈（the engine is not available, starting a hot-seat game）。",
    ),
    "engine_failed": (
        "The engine failed ({error}); the game goes on as a hot-seat game.",
        "引擎出错（{error}），改为双人同屏对弈。",
    ),
    "engine_illegal": ("the engine chose an illegal move {move}", "引擎给出了不合法的走法 {move}"),
    "thinking": ("The computer ({side}) is thinking…", "电脑（{side}）思考中…"),
    "first_search": (
        "(the first search also prepares the engine: up to a minute)",
        "（首次搜索需要准备引擎，最多约一分钟）",
    ),
    "thinking_hint": ("Looking for a good move…", "正在寻找好棋…"),
    "computer_played": ("Computer: {move}", "电脑：{move}"),
    "played": ("{side}: {move}", "{side}：{move}"),
    "level_set": ("Computer level {level}.", "电脑等级：{level}。"),
    "level_usage": ("Usage: level N, with N from 1 to 10.", "用法：level N（N 为 1 到 10）。"),
    "flipped": ("Board turned round.", "棋盘已翻转。"),
    "save_usage": ("Usage: save FILE", "用法：save 文件名"),
    "load_usage": ("Usage: load FILE", "用法：load 文件名"),
    "saved": ("Saved the game to {path}.", "对局已保存到 {path}。"),
    "loaded": ("Loaded {path} ({count} moves).", "已读取 {path}（{count} 步）。"),
    "cannot_save": ("Cannot save {path}: {error}", "无法保存 {path}：{error}"),
    "cannot_load": ("Cannot load {path}: {error}", "无法读取 {path}：{error}"),
    "legal_moves": ("Legal moves ({count}):", "可走的棋（{count} 步）："),
    "no_legal_moves": ("No legal moves.", "无棋可走。"),
    "resigns": ("{side} resigns.", "{side}认输。"),
    "game_over": ("Game over: {result}.", "对局结束：{result}。"),
    "you_win": ("You win!", "你赢了！"),
    "you_lose": ("You lose.", "你输了。"),
    "offer_new": (
        "New game? Type y (or new) for a new game, n (or quit) to leave.",
        "再来一局？输入 y（或 new）开新局，n（或 quit）退出。",
    ),
    "new_game": ("New game.", "新的一局。"),
    "lang_set": ("Language: English.", "语言：中文。"),
    "lang_usage": ("Usage: lang zh|en", "用法：lang zh|en"),
    "bye": ("Bye.", "再见。"),
}

HELP: dict[Lang, str] = {
    "en": """\
Moves: from-square and to-square, e.g. g3g4 or g3 g4 (files a-g, ranks 1-9).
Commands:
  undo          take back the last move (vs the computer: its reply and your move)
  hint          the computer's suggestion
  level N       computer strength, 1-10
  flip          turn the board round
  save FILE     write the game record
  load FILE     continue a saved game
  moves         list the legal moves
  new           start a new game
  lang zh|en    switch language
  resign        give up this game
  quit          leave
  help          this text""",
    "zh": """\
走法：起点格加终点格，如 g3g4 或 g3 g4（列 a-g，行 1-9）。
命令：
  undo（悔棋）        退回上一步（人机对弈时退回电脑的应着和你的一步）
  hint（提示）        电脑建议的走法
  level N（等级）     电脑强度 1-10
  flip（翻转）        翻转棋盘
  save 文件（保存）   保存棋谱
  load 文件（读取）   读取棋谱继续对局
  moves（走法）       列出所有合法走法
  new（新局）         开始新的一局
  lang zh|en         切换语言
  resign（认输）      认输
  quit（退出）        退出
  help（帮助）        显示本说明""",
}


def colon(lang: Lang) -> str:
    """The colon after a label: full width in Chinese."""
    return "：" if lang == "zh" else ": "


def say(key: str, lang: Lang, **values: object) -> str:
    """The message ``key`` in ``lang`` with ``values`` filled in."""
    english, chinese = MESSAGES[key]
    if key == "undone":
        values.setdefault("s", "" if values.get("count") == 1 else "s")
    return (chinese if lang == "zh" else english).format(**values)


def parse_lang(text: str) -> Lang | None:
    """``"zh"``/``"en"`` for a language name a player may type, or None.

    >>> parse_lang("ZH"), parse_lang("中文"), parse_lang("english"), parse_lang("fr")
    ('zh', 'zh', 'en', None)
    """
    key = text.strip().lower()
    if key in ("zh", "cn", "chinese", "中文", "zh_cn", "zh-cn"):
        return "zh"
    if key in ("en", "english", "英文", "英语"):
        return "en"
    return None


def default_lang(environ: Mapping[str, str] | None = None) -> Lang:
    """Chinese when the locale (``LC_ALL``, ``LC_MESSAGES`` or ``LANG``) is Chinese, else English.

    >>> default_lang({"LANG": "zh_CN.UTF-8"}), default_lang({"LANG": "C.UTF-8"}), default_lang({})
    ('zh', 'en', 'en')
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"

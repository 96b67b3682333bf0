"""Jungle (斗兽棋) rules library."""

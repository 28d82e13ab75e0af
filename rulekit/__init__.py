"""rulekit: declarative Tianjin mahjong rules."""

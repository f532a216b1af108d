//! Scoring and the minimum group size: parameters of the game, not constants.

use std::fmt;
use std::str::FromStr;

/// How a removed group of `n` tiles scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Points {
    /// `(n - 2)^2`: the research literature's standard.
    MinusTwoSquared,
    /// `(n - 1)^2`.
    MinusOneSquared,
    /// `n (n - 1)`.
    NTimesNMinusOne,
}

/// The clear bonuses a game may be scored with: a billion either way, far past any board's
/// points, so that no score (a sum of group points and one bonus) can overflow.
pub const CLEAR_BONUS: std::ops::RangeInclusive<i64> = -1_000_000_000..=1_000_000_000;

/// The rules a game is scored under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Points per removed group.
    pub points: Points,
    /// Bonus for emptying the board.
    pub clear_bonus: i64,
    /// Smallest group that may be removed (at least 2).
    pub min_group: u32,
}

impl Default for Rules {
    /// `(n - 2)^2` per group, 1,000 for a clear, groups of 2 or more: the literature's rules.
    fn default() -> Self {
        Rules { points: Points::MinusTwoSquared, clear_bonus: 1000, min_group: 2 }
    }
}

impl Rules {
    /// Points for removing a group of `n` tiles.
    #[inline]
    pub fn points(&self, n: u32) -> i64 {
        let n = i64::from(n);
        match self.points {
            Points::MinusTwoSquared => (n - 2) * (n - 2),
            Points::MinusOneSquared => (n - 1) * (n - 1),
            Points::NTimesNMinusOne => n * (n - 1),
        }
    }

    /// The bonus at the end of a game of `moves` moves that left the board `cleared`: the
    /// clear bonus when a move emptied it, nothing for a board that started empty.
    #[inline]
    pub fn end_bonus(&self, moves: usize, cleared: bool) -> i64 {
        if moves > 0 && cleared {
            self.clear_bonus
        } else {
            0
        }
    }
}

impl FromStr for Points {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "n-2^2" | "(n-2)^2" | "standard" => Ok(Points::MinusTwoSquared),
            "n-1^2" | "(n-1)^2" => Ok(Points::MinusOneSquared),
            "n(n-1)" | "n*(n-1)" => Ok(Points::NTimesNMinusOne),
            _ => Err(format!("unknown scoring {s:?}: use (n-2)^2, (n-1)^2 or n(n-1)")),
        }
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Points::MinusTwoSquared => "(n-2)^2",
            Points::MinusOneSquared => "(n-1)^2",
            Points::NTimesNMinusOne => "n(n-1)",
        })
    }
}

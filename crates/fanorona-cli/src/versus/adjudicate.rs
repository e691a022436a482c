//! Draw adjudication, as engine testers use it to shorten matches: a game
//! whose every turn for a while both engines scored as level is counted a
//! draw without playing it out to the fifty-turn rule.

use std::{fmt, str::FromStr};

/// `--adjudicate-draw after=T,turns=N,score=S`: once the game has `after`
/// turns or more (its opening's included), a draw when each of its last
/// `turns` turns, both engines', was chosen with a score within `score`
/// hundredths of a stone of level.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct DrawRule {
    /// The fewest turns a game has before it may be adjudicated.
    pub(crate) after: usize,
    /// How many of the last turns must be scored near level, 1 or more.
    pub(crate) turns: usize,
    /// How near level, in hundredths of a stone.
    pub(crate) score: i32,
}

impl DrawRule {
    /// Whether a game of `played` turns whose turns after its opening
    /// were chosen with `scores` (`None`: no score in hundredths, as a
    /// win or loss found) is a draw by this rule.
    pub(crate) fn applies(&self, played: usize, scores: &[Option<i32>]) -> bool {
        played >= self.after
            && scores.len() >= self.turns
            && scores[scores.len() - self.turns..]
                .iter()
                .all(|s| matches!(s, Some(v) if v.abs() <= self.score))
    }

    /// Why the game ended, for its line and its record.
    pub(crate) fn reason(&self) -> String {
        format!(
            "draw by adjudication: the last {} turns were each scored within {} hundredths \
             of a stone of level",
            self.turns, self.score
        )
    }
}

impl FromStr for DrawRule {
    type Err = String;

    /// `after=40,turns=10,score=10`, in any order, each given once.
    fn from_str(s: &str) -> Result<DrawRule, String> {
        let expected = "expected after=T,turns=N,score=S: T turns or more played (0 or more), \
                        the last N (1 or more) each scored within S hundredths of a stone \
                        of level (0 or more)";
        let invalid = |why: String| format!("invalid --adjudicate-draw {s:?}: {why}");
        let (mut after, mut turns, mut score) = (None, None, None);
        for part in s.split(',') {
            let Some((key, value)) = part.split_once('=') else {
                return Err(invalid(expected.to_owned()));
            };
            let Ok(value) = value.trim().parse::<u32>() else {
                return Err(invalid(format!(
                    "{} {value:?} is not a whole number of 0 or more",
                    key.trim()
                )));
            };
            let slot = match key.trim() {
                "after" => &mut after,
                "turns" => &mut turns,
                "score" => &mut score,
                other => return Err(invalid(format!("unknown parameter {other:?}; {expected}"))),
            };
            if slot.replace(value).is_some() {
                return Err(invalid(format!("{} is given twice", key.trim())));
            }
        }
        match (after, turns, score) {
            (Some(after), Some(turns), Some(score)) if turns >= 1 && score <= 10_000 => {
                Ok(DrawRule {
                    after: after as usize,
                    turns: turns as usize,
                    score: score as i32,
                })
            }
            _ => Err(invalid(expected.to_owned())),
        }
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "after={},turns={},score={}",
            self.after, self.turns, self.score
        )
    }
}

/// The score an `info` line gives: `Some(Some(cp))` for `score cp N`,
/// `Some(None)` for any other score (a win, a loss), `None` for a line
/// with no score.
pub(crate) fn info_score(line: &str) -> Option<Option<i32>> {
    let mut words = line.split_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    words.by_ref().find(|w| *w == "score")?;
    Some(match words.next() {
        Some("cp") => words.next().and_then(|n| n.parse().ok()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_rule_in_any_order_and_refuses_the_rest() {
        let rule: DrawRule = "turns=8, score=10,after=40".parse().expect("a rule");
        assert_eq!(
            rule,
            DrawRule {
                after: 40,
                turns: 8,
                score: 10
            }
        );
        assert_eq!(rule.to_string(), "after=40,turns=8,score=10");
        assert_eq!(rule.to_string().parse(), Ok(rule));
        for bad in [
            "",
            "after=40,turns=8",
            "after=40,turns=0,score=10",
            "after=40,turns=8,score=-1",
            "after=40,turns=8,score=10001",
            "after=40,turns=8,score=ten",
            "after=40,turns=8,score=10,after=2",
            "after=40,turns=8,score=10,elo=3",
            "after 40",
        ] {
            let err = bad.parse::<DrawRule>().expect_err(bad);
            assert!(err.starts_with("invalid --adjudicate-draw"), "{err}");
        }
    }

    #[test]
    fn a_draw_needs_enough_turns_each_scored_near_level() {
        let rule = DrawRule {
            after: 10,
            turns: 3,
            score: 10,
        };
        let near = [Some(50), Some(-10), Some(0), Some(10)];
        assert!(rule.applies(10, &near));
        assert!(!rule.applies(9, &near), "too early in the game");
        assert!(!rule.applies(10, &near[1..3]), "too few turns scored");
        assert!(!rule.applies(10, &[Some(0), Some(11), Some(0), Some(0)][..3]));
        assert!(!rule.applies(10, &[Some(0), None, Some(0), Some(0)]));
        assert!(rule.applies(10, &[None, Some(0), Some(0), Some(0)]));
    }

    #[test]
    fn reads_the_score_of_an_info_line() {
        assert_eq!(
            info_score("info depth 12 seldepth 17 score cp -123 nodes 5 pv a1-b1"),
            Some(Some(-123))
        );
        assert_eq!(info_score("info depth 3 score win 5 nodes 9"), Some(None));
        assert_eq!(info_score("info depth 3 score lost"), Some(None));
        assert_eq!(info_score("info depth 3 score cp x"), Some(None));
        assert_eq!(info_score("info depth 3 nodes 9"), None);
        assert_eq!(info_score("bestturn a1-b1"), None);
        assert_eq!(info_score("information score cp 3"), None);
    }
}

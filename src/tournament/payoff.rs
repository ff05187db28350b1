//! The Magi 12-point payoff system (RULES.md §2.5, mode 2): what each player earns from a game,
//! given how it ended and the resignation and draw offers made in it.
//!
//! The choices RULES.md leaves open are made as it proposes, and the open ones are settings:
//! * bands B1..B6 end at moves 45, 60, 75, 90, 119, 150 with values 12, 11, 10, 9, 8, 7;
//! * without the optional 150-move rule B6 goes on for ever; with it, a game still running at
//!   move 151 scores 0–0;
//! * a refused draw offer starts the same decay as a refused resignation (the literal reading),
//!   unless `refused_draw_decays` is off;
//! * the side that offered resignation and mates later gets 12–0.
//!
//! Games that end otherwise than by the rules or by an offer are scored so: a loss on time, by an
//! illegal move, a crash, or by score adjudication counts as a resignation accepted at that move;
//! a draw by adjudication or by the referee's move limit counts as an agreed draw.

use crate::board::Color;

#[derive(Clone, Debug, PartialEq)]
pub struct PayoffRules {
    /// The last move of each band and the value of an accepted resignation in it.
    pub bands: Vec<(u32, u8)>,
    /// The optional 150-move rule: a game still running after the last band scores 0–0.
    pub rule150: bool,
    /// A refused draw offer starts the decay schedule like a refused resignation.
    pub refused_draw_decays: bool,
}

impl Default for PayoffRules {
    fn default() -> Self {
        PayoffRules {
            bands: vec![(45, 12), (60, 11), (75, 10), (90, 9), (119, 8), (150, 7)],
            rule150: false,
            refused_draw_decays: true,
        }
    }
}

/// An offer made in the game, at a full-move number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    pub by: Color,
    pub fullmove: u32,
    pub accepted: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    Resign,
    Draw,
}

/// How the game ended, for the payoff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayoffEnd {
    /// `winner` mated at this move.
    Mate { winner: Color, fullmove: u32 },
    /// `by` gave stalemate.
    Stalemate { by: Color },
    /// Any other draw (repetition, 50 moves, material, agreement, the referee's limits).
    Draw,
    /// `loser` resigned at this move, or lost there otherwise (time, illegal move, crash,
    /// adjudication): scored as an accepted resignation.
    Resign { loser: Color, fullmove: u32 },
    /// The game reached the 150-move limit.
    MoveLimit,
}

/// White's and Black's points.
pub type Payoff = (u8, u8);

fn split(winner: Color, points: u8) -> Payoff {
    match winner {
        Color::White => (points, 12 - points),
        Color::Black => (12 - points, points),
    }
}

impl PayoffRules {
    /// The band (0-based) of a full-move number; past the last band, the last one, or one
    /// more (worth nothing) under the 150-move rule.
    pub fn band(&self, fullmove: u32) -> usize {
        match self.bands.iter().position(|&(last, _)| fullmove <= last) {
            Some(i) => i,
            None if self.rule150 => self.bands.len(),
            None => self.bands.len() - 1,
        }
    }

    /// The value of an accepted resignation in a band (0 past the bands).
    pub fn value(&self, band: usize) -> u8 {
        self.bands.get(band).map_or(0, |&(_, v)| v)
    }

    /// The last move before the 150-move rule applies, if it is on.
    pub fn move_limit(&self) -> Option<u32> {
        self.rule150
            .then(|| self.bands.last().map_or(150, |&(last, _)| last))
    }

    /// The payoff of a game. Only the first offer of each kind counts (one per game, §2.5).
    pub fn payoff(&self, offers: &[Offer], end: PayoffEnd) -> Payoff {
        let mut resign_seen = false;
        let mut draw_seen = false;
        // The side that refused an offer, and the band the offer was made in.
        let mut refused: Option<(Color, usize)> = None;
        for offer in offers {
            let seen = match offer.kind {
                OfferKind::Resign => &mut resign_seen,
                OfferKind::Draw => &mut draw_seen,
            };
            if std::mem::replace(seen, true) {
                continue;
            }
            let band = self.band(offer.fullmove);
            if offer.accepted {
                return match offer.kind {
                    OfferKind::Resign => split(!offer.by, self.value(band)),
                    OfferKind::Draw => (6, 6),
                };
            }
            let decays = offer.kind == OfferKind::Resign || self.refused_draw_decays;
            if decays && refused.is_none() {
                refused = Some((!offer.by, band));
            }
        }
        match end {
            PayoffEnd::Mate { winner, fullmove } => {
                let band = self.band(fullmove);
                match refused {
                    Some((refuser, offer_band)) if refuser == winner && band > offer_band => {
                        split(winner, self.value(band))
                    }
                    _ => split(winner, 12),
                }
            }
            PayoffEnd::Stalemate { by } => split(by, 7),
            PayoffEnd::Draw => (6, 6),
            PayoffEnd::Resign { loser, fullmove } => split(!loser, self.value(self.band(fullmove))),
            PayoffEnd::MoveLimit => (0, 0),
        }
    }
}

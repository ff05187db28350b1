//! What the match shows: each game as PGN, the live progress line and the final table.

use super::Config;
use super::Summary;
use super::referee::GameRecord;
use super::stats::{EloModel, SprtDecision, Statistic, Wld};
use crate::pgn::{PgnGame, PgnMove};

/// Today's date as PGN writes it (`2025.06.01`), from the system clock in UTC.
pub fn pgn_date() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a calendar date (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A finished game as PGN.
pub fn pgn_game(record: &GameRecord, config: &Config) -> PgnGame {
    let mut g = PgnGame::default();
    g.set_tag("Event", config.event.clone());
    g.set_tag("Site", "?");
    g.set_tag("Date", pgn_date());
    g.set_tag("Round", record.number.to_string());
    // The two games of an opening pair share it: merging and resuming pair games by it.
    g.set_tag("OpeningNumber", (record.opening + 1).to_string());
    g.set_tag("White", record.white_name.clone());
    g.set_tag("Black", record.black_name.clone());
    g.set_tag("Result", record.result.pgn());
    if record.variant != "chess" {
        g.set_tag("Variant", record.variant.clone());
    }
    if let Some(fen) = &record.fen {
        g.set_tag("SetUp", "1");
        g.set_tag("FEN", fen.clone());
    }
    let [white_tc, black_tc] = &record.time_control;
    if white_tc == black_tc {
        g.set_tag("TimeControl", white_tc.clone());
    } else {
        g.set_tag("WhiteTimeControl", white_tc.clone());
        g.set_tag("BlackTimeControl", black_tc.clone());
    }
    g.set_tag("Termination", record.termination.clone());
    g.set_tag("PlyCount", record.moves.len().to_string());
    if let Some((w, b)) = record.payoff {
        g.set_tag("Scoring", "magi-12");
        g.set_tag("Payoff", format!("{w}-{b}"));
    }
    // What merging checks the shards of a match by.
    g.set_tag(
        super::settings_record::PGN_TAG,
        super::settings_record::SettingsRecord::of(config).to_text(),
    );
    g.moves = record
        .moves
        .iter()
        .map(|m| PgnMove {
            san: m.san.clone(),
            comment: (!m.comment.is_empty()).then(|| m.comment.clone()),
        })
        .collect();
    g.final_comment = Some(record.detail.clone());
    g.result = record.result.pgn().to_string();
    g
}

fn elo_text(wld: &Wld) -> String {
    // Adding zero turns -0.0 into 0.0.
    let elo = wld.elo() + 0.0;
    if !elo.is_finite() {
        return if elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        };
    }
    let err = wld.elo_error95();
    if wld.games() < 2 {
        format!("{elo:+.1}")
    } else if err.is_finite() {
        format!("{elo:+.1} ± {err:.1}")
    } else {
        // The interval reaches a score of 0 or 1.
        format!("{elo:+.1} ± inf")
    }
}

/// One line of standings: the first engine's score against the rest.
pub fn progress_line(summary: &Summary, total: usize) -> String {
    let w = &summary.results[0];
    let mut line = format!(
        "games {}/{}  {} {}-{}-{} ({:.1}%)  Elo {}  LOS {:.1}%",
        summary.games.len(),
        total,
        summary.names[0],
        w.wins,
        w.losses,
        w.draws,
        100.0 * w.score(),
        elo_text(w),
        100.0 * w.los()
    );
    if summary.games.iter().any(|g| g.payoff.is_some()) {
        let others: u64 = summary.payoff[1..].iter().sum();
        line += &format!("  payoff {}-{}", summary.payoff[0], others);
    }
    if let (Some(test), Some((llr, _))) = (summary.test(), summary.sprt) {
        let (lo, hi) = test.bounds();
        line += &format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})");
    }
    line
}

/// The final table: each engine's results against the field, its opening pairs, how the
/// games ended, the games left out, and the test's verdict.
pub fn final_table(summary: &Summary) -> String {
    let payoff = summary.games.iter().any(|g| g.payoff.is_some());
    let illegal = summary.illegal_losses.iter().any(|&n| n > 0);
    let names = &summary.names;
    let mut out = String::new();
    let width = names
        .iter()
        .map(|e| e.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    out += &format!(
        "{:<3} {:<width$} {:>6} {:>6} {:>6} {:>6} {:>7} {:>16} {:>7}",
        "#", "engine", "games", "wins", "losses", "draws", "score", "Elo ± 95%", "LOS"
    );
    if payoff {
        out += &format!(" {:>8} {:>8}", "payoff", "per game");
    }
    if illegal {
        out += &format!(" {:>8}", "illegal");
    }
    out.push('\n');
    let mut order: Vec<usize> = (0..names.len()).collect();
    order.sort_by(|&a, &b| {
        summary.results[b]
            .score()
            .total_cmp(&summary.results[a].score())
    });
    for (rank, &i) in order.iter().enumerate() {
        let r = &summary.results[i];
        out += &format!(
            "{:<3} {:<width$} {:>6} {:>6} {:>6} {:>6} {:>6.1}% {:>16} {:>6.1}%",
            rank + 1,
            names[i],
            r.games(),
            r.wins,
            r.losses,
            r.draws,
            100.0 * r.score(),
            elo_text(r),
            100.0 * r.los()
        );
        if payoff {
            let per = summary.payoff[i] as f64 / r.games().max(1) as f64;
            out += &format!(" {:>8} {:>8.2}", summary.payoff[i], per);
        }
        if illegal {
            let n = summary.illegal_losses[i];
            let mark = if summary.void[i] > 0 { " void" } else { "" };
            out += &format!(" {:>8}", format!("{n}{mark}"));
        }
        out.push('\n');
    }
    // Opening pairs, from each engine's side.
    if summary.pentanomial.iter().any(|p| p.pairs() > 0) {
        for &i in &order {
            let p = &summary.pentanomial[i];
            if p.pairs() == 0 {
                continue;
            }
            let c = p.counts();
            let (elo, err) = p.elo();
            let (nelo, nerr) = p.normalized_elo();
            out += &format!(
                "pairs {}: {} (LL {}, LD {}, WL+DD {}, WD {}, WW {})  Elo {:+.1} ± {:.1}  nElo {:+.1} ± {:.1}  LOS {:.1}%\n",
                names[i],
                p.pairs(),
                c[0],
                c[1],
                c[2],
                c[3],
                c[4],
                elo + 0.0,
                err,
                nelo + 0.0,
                nerr,
                100.0 * p.los()
            );
        }
    }
    // Why games ended.
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for g in &summary.games {
        match reasons.iter_mut().find(|(r, _)| *r == g.termination) {
            Some(r) => r.1 += 1,
            None => reasons.push((g.termination.clone(), 1)),
        }
    }
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out += &format!(
        "endings: {}\n",
        reasons
            .iter()
            .map(|(r, n)| format!("{r} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let voided: u64 = summary.void.iter().sum();
    if voided > 0 {
        let whose: Vec<String> = (0..names.len())
            .filter(|&i| summary.void[i] > 0)
            .map(|i| format!("{} {}", names[i], summary.void[i]))
            .collect();
        out += &format!(
            "void: {voided} games lost by an illegal move ({}) are left out of the score, the pairs and the SPRT\n",
            whose.join(", ")
        );
    }
    if let (Some(test), Some((llr, decision))) = (summary.test(), summary.sprt) {
        let (lo, hi) = test.bounds();
        let verdict = match decision {
            Some(SprtDecision::H1) => "H1 accepted",
            Some(SprtDecision::H0) => "H0 accepted",
            None => "no decision yet",
        };
        let model = match test.model {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        };
        let stat = match test.statistic {
            Statistic::Trinomial => "trinomial",
            Statistic::Pentanomial => "pentanomial",
        };
        let (tri, pen) = summary.llrs.unwrap_or((llr, llr));
        out += &format!(
            "SPRT: elo0={} elo1={} alpha={} beta={} model={model} stat={stat}  LLR {llr:.2} ({lo:.2}, {hi:.2})  {verdict}{}\n",
            test.elo0,
            test.elo1,
            test.alpha,
            test.beta,
            if summary.stopped_early {
                " (stopped early)"
            } else {
                ""
            }
        );
        out += &format!(
            "      LLR of the games (trinomial) {tri:.2}, of the pairs (pentanomial) {pen:.2}\n"
        );
        if let Some((games, at)) = summary.decided_at
            && games < summary.counted_games()
        {
            let running = match summary.counted_games() - games {
                1 => "the game still running then is".to_string(),
                n => format!("the {n} games still running then are"),
            };
            out += &format!(
                "      decided after {games} games at LLR {at:.2}; {running} counted above\n"
            );
        }
    }
    out
}

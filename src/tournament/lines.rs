//! The lines cutechess-cli and fastchess print during a match, which testers' tools read
//! (OpenBench's worker reads the game number and result of each `Finished game` line and pairs
//! games 1-2, 3-4, …; scripts read the `Score of`, `Elo difference`, `Ptnml(0-2)` and SPRT
//! lines). docs/match.md shows each line and which tool prints it that way.

use super::Job;
use super::Summary;
use super::referee::{GameRecord, GameResult};
use super::stats::SprtDecision;

/// `Started game 3 of 100 (A vs B)`: White, then Black; the number and the count are the
/// whole match's, also in a shard.
pub fn started(job: &Job, total: usize, names: &[String]) -> String {
    format!(
        "Started game {} of {} ({} vs {})",
        job.number, total, names[job.white], names[job.black]
    )
}

/// `Finished game 3 (A vs B): 1-0 {White mates}`.
pub fn finished(g: &GameRecord) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        g.number,
        g.white_name,
        g.black_name,
        g.result.pgn(),
        description(g)
    )
}

/// What ended the game in cutechess's words (`White mates`, `Black loses on time`, `White
/// makes an illegal move: …`, `White disconnects`, `Draw by adjudication`), which tools search
/// for: OpenBench counts "disconnect" and "stalls" as crashes, "on time" and "illegal".
pub fn description(g: &GameRecord) -> String {
    let (winner, loser) = match g.result {
        GameResult::WhiteWins => ("White", "Black"),
        GameResult::BlackWins => ("Black", "White"),
        GameResult::Draw => ("", ""),
    };
    let draw = g.result == GameResult::Draw;
    // The referee's detail after "White (name): ", when it has that form.
    let reason = g
        .detail
        .split_once("): ")
        .map_or(g.detail.as_str(), |(_, r)| r);
    let text = match g.termination.as_str() {
        "checkmate" => format!("{winner} mates"),
        "stalemate" if draw => "Draw by stalemate".into(),
        "repetition" => "Draw by repetition".into(),
        "50-move rule" => "Draw by fifty moves rule".into(),
        "insufficient material" => "Draw by insufficient mating material".into(),
        "150-move rule" => "Draw by the 150-move rule".into(),
        "max length" => format!("Draw by adjudication: {}", g.detail),
        "adjudication" if draw => "Draw by adjudication".into(),
        "adjudication" => format!("{winner} wins by adjudication"),
        "resignation" => format!("{loser} resigns"),
        "draw agreed" => "Draw by agreement".into(),
        "time forfeit" => format!("{loser} loses on time"),
        "illegal move" | "unparseable move" => format!("{loser} makes an illegal move: {reason}"),
        "crash" | "engine failure" => format!("{loser} disconnects"),
        "stalled" => format!("{loser}'s connection stalls"),
        "protocol error" => format!("{loser} breaks the protocol: {reason}"),
        "false claim" => format!("{loser} makes a false claim: {reason}"),
        _ if !draw && !g.detail.is_empty() => g.detail.clone(),
        _ if !draw => format!("{winner} wins"),
        _ => format!("Draw by {}", g.termination),
    };
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => text,
    }
}

/// `Score of A vs B: 10 - 5 - 3  [0.639] 18`: the first engine's wins, losses and draws
/// against the second and its score, as cutechess prints it after every game of a two-engine
/// match (void games left out).
pub fn score(summary: &Summary) -> Option<String> {
    if summary.names.len() != 2 {
        return None;
    }
    let r = &summary.results[0];
    Some(format!(
        "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
        summary.names[0],
        summary.names[1],
        r.wins,
        r.losses,
        r.draws,
        r.score(),
        r.games()
    ))
}

/// The figures cutechess and fastchess print every few games and at the end of a two-engine
/// match, from the first engine's side:
///
/// ```text
/// Elo difference: 99.2 +/- 170.8, LOS: 88.5 %, DrawRatio: 16.7 %          (games; cutechess)
/// Ptnml(0-2): [0, 1, 3, 2, 3], WL/DD Ratio: 2.00                         (pairs; fastchess)
/// Elo: 101.30 +/- 150.00, nElo: 150.20 +/- 200.10, LOS: 90.10 %, PairsRatio: 5.00  (pairs)
/// SPRT: llr 1.23 (41.8%), lbound -2.94, ubound 2.94                      (games; cutechess)
/// LLR: 0.98 (33.3%) (-2.94, 2.94) [0.00, 5.00]                           (pairs; fastchess)
/// ```
///
/// The SPRT line ends ` - H1 was accepted` (or H0) once the test has decided, by whichever
/// statistic decides it.
pub fn rating_block(summary: &Summary) -> Vec<String> {
    if summary.names.len() != 2 {
        return Vec::new();
    }
    let r = &summary.results[0];
    let mut out = vec![format!(
        "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
        r.elo() + 0.0,
        r.elo_error95(),
        100.0 * r.los(),
        100.0 * r.draw_ratio()
    )];
    let p = &summary.pentanomial[0];
    if p.pairs() > 0 {
        let c = p.counts();
        out.push(format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {:.2}",
            c[0],
            c[1],
            c[2],
            c[3],
            c[4],
            p.wl_dd_ratio()
        ));
        let (elo, err) = p.elo();
        let (nelo, nerr) = p.normalized_elo();
        out.push(format!(
            "Elo: {:.2} +/- {:.2}, nElo: {:.2} +/- {:.2}, LOS: {:.2} %, PairsRatio: {:.2}",
            elo + 0.0,
            err,
            nelo + 0.0,
            nerr,
            100.0 * p.los(),
            p.pairs_ratio()
        ));
    }
    if let (Some(test), Some((trinomial, pentanomial))) = (summary.test(), summary.llrs) {
        let (lower, upper) = test.bounds();
        let share = |llr: f64| 100.0 * if llr < 0.0 { llr / lower } else { llr / upper };
        let verdict = match summary.sprt.and_then(|(_, d)| d) {
            Some(SprtDecision::H1) => " - H1 was accepted",
            Some(SprtDecision::H0) => " - H0 was accepted",
            None => "",
        };
        out.push(format!(
            "SPRT: llr {:.2} ({:.1}%), lbound {lower:.2}, ubound {upper:.2}{verdict}",
            trinomial + 0.0,
            share(trinomial)
        ));
        out.push(format!(
            "LLR: {:.2} ({:.1}%) ({lower:.2}, {upper:.2}) [{:.2}, {:.2}]",
            pentanomial + 0.0,
            share(pentanomial),
            test.elo0,
            test.elo1
        ));
    }
    out
}

//! Fairy-Stockfish's Betza dialect, turned into magus's.
//!
//! The two dialects share letters but not always meanings: Fairy-Stockfish reads `L` and `J`
//! as the (3,1) and (3,2) leaps, reads a pair of direction letters as one of eight octant
//! codes (so `frK` is two moves there, three in XBoard's reading), lets the last of several
//! ranges in one direction win, and skips letters it does not know. So a description is first
//! read the way Fairy-Stockfish reads it, into a set of moves; the same text is used for magus
//! when magus reads it into the same set, and otherwise magus's Betza is written out from the
//! set, one atom per group of directions. What magus cannot express is refused by name:
//! hoppers (`p`, `g`), initial moves (`i`), en passant by other pieces than the pawn (`e`),
//! lame leaps other than `nD` and `nA`, and letters Fairy-Stockfish would skip.

use std::collections::{BTreeMap, BTreeSet};

use crate::variant::betza::{self as magus_betza, Path};

/// One move of a piece: a step, how often it repeats, whether a middle square must be empty,
/// and whether it moves or captures.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct Move {
    dx: i8,
    dy: i8,
    /// 1: a leap; 0: unlimited; n: at most n steps.
    range: u8,
    lame: bool,
    capture: bool,
}

const VERTICAL: &str = "fbvh";
const HORIZONTAL: &str = "rlsh";

/// The eight directions of an atom (a, b) (a along the rank axis first, as Fairy-Stockfish
/// lists them), each with the direction codes that select it.
fn octants(a: i8, b: i8) -> [((i8, i8), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// The leaps of an atom letter, as (a, b); whether the letter is a rider by itself.
fn atom(letter: char) -> Option<(&'static [(i8, i8)], bool)> {
    Some(match letter {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'L' | 'C' => (&[(3, 1)], false),
        'J' | 'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

/// The moves Fairy-Stockfish reads from a description.
fn fsf_moves(text: &str) -> Result<BTreeSet<Move>, String> {
    // Per modality (0 moves, 1 captures): step -> distance, as Fairy-Stockfish keeps them (a
    // later entry for the same step replaces an earlier one).
    let mut leaps: [BTreeMap<(i8, i8), i32>; 2] = Default::default();
    let mut rides: [BTreeMap<(i8, i8), i32>; 2] = Default::default();
    let chars: Vec<char> = text.chars().collect();
    let mut modalities: Vec<usize> = Vec::new();
    let mut lame = false;
    let mut directions: Vec<String> = Vec::new();
    let mut pending = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            'm' => modalities.push(0),
            'c' => modalities.push(1),
            'p' | 'g' => {
                return Err(format!(
                    "'{c}' ({}) is not in magus's moves yet",
                    if c == 'p' {
                        "a hopper"
                    } else {
                        "a grasshopper"
                    }
                ));
            }
            'i' => {
                return Err(
                    "'i' (a move only from the start squares) is not in magus's moves yet".into(),
                );
            }
            'e' => {
                return Err(
                    "'e' (en passant by this piece) is not in magus: only the pawn takes en passant"
                        .into(),
                );
            }
            'n' => lame = true,
            _ if VERTICAL.contains(c) || HORIZONTAL.contains(c) => {
                let next = chars.get(i + 1).copied();
                let pairs = next.is_some_and(|n| {
                    n == c
                        || (VERTICAL.contains(c) && HORIZONTAL.contains(n))
                        || (HORIZONTAL.contains(c) && VERTICAL.contains(n))
                });
                match next {
                    Some(n) if pairs => {
                        directions.push(format!("{c}{n}"));
                        i += 1;
                    }
                    _ => directions.push(format!("{c}{c}")),
                }
            }
            _ => {
                let Some((leaps_of, mut rider)) = atom(c) else {
                    return Err(if c.is_ascii_digit() {
                        format!("'{c}' at character {}: a digit that follows no atom", i + 1)
                    } else {
                        format!(
                            "'{c}' at character {}: Fairy-Stockfish skips this letter without a word; magus refuses it rather than guess",
                            i + 1
                        )
                    });
                };
                let mut distance = 0;
                if let Some(&n) = chars.get(i + 1)
                    && (n.is_ascii_digit() || n == c)
                {
                    rider = true;
                    if let Some(d) = n.to_digit(10) {
                        distance = d as i32;
                    }
                    i += 1;
                    if chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                        return Err(format!(
                            "'{c}{n}{}': Fairy-Stockfish reads one digit of range only",
                            chars[i + 1]
                        ));
                    }
                }
                if !rider && lame {
                    distance = -1;
                }
                if modalities.is_empty() {
                    modalities = vec![0, 1];
                }
                for &(a, b) in leaps_of {
                    // A single orthogonal atom splits a pair into its two letters (`fsW` is
                    // forward and sideways).
                    let codes: Vec<String> = directions
                        .iter()
                        .flat_map(|d| {
                            let d: Vec<char> = d.chars().collect();
                            if leaps_of.len() == 1 && b == 0 && d[0] != d[1] {
                                vec![format!("{0}{0}", d[0]), format!("{0}{0}", d[1])]
                            } else {
                                vec![d.iter().collect()]
                            }
                        })
                        .collect();
                    for &m in &modalities {
                        let map = if rider { &mut rides[m] } else { &mut leaps[m] };
                        for (step, selected_by) in octants(a, b) {
                            if codes.is_empty() || codes.iter().any(|c| selected_by.contains(&&**c))
                            {
                                map.insert(step, distance);
                            }
                        }
                    }
                }
                modalities.clear();
                directions.clear();
                lame = false;
                pending = false;
                i += 1;
                continue;
            }
        }
        pending = true;
        i += 1;
    }
    if pending {
        return Err("modifiers at the end with no atom after them".into());
    }
    let mut moves = BTreeSet::new();
    for (m, map) in leaps.iter().enumerate() {
        for (&(dx, dy), &distance) in map {
            // A lame step of one square has no square to be blocked on.
            let unit = dx.abs() <= 1 && dy.abs() <= 1;
            moves.insert(Move {
                dx,
                dy,
                range: 1,
                lame: distance < 0 && !unit,
                capture: m == 1,
            });
        }
    }
    for (m, map) in rides.iter().enumerate() {
        for (&(dx, dy), &distance) in map {
            moves.insert(Move {
                dx,
                dy,
                range: distance.clamp(0, 9) as u8,
                lame: false,
                capture: m == 1,
            });
        }
    }
    Ok(normalize(moves))
}

/// One form for one meaning: a one-square ride is a leap, a leap along a ride in the same
/// direction adds nothing, and of two rides in one direction the longer counts.
fn normalize(moves: BTreeSet<Move>) -> BTreeSet<Move> {
    let mut longest: BTreeMap<(i8, i8, bool, bool), u8> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for m in &moves {
        if m.range != 1 && !m.lame {
            let e = longest
                .entry((m.dx, m.dy, m.lame, m.capture))
                .or_insert(m.range);
            if *e != 0 && (m.range == 0 || m.range > *e) {
                *e = m.range;
            }
        }
    }
    for m in moves {
        if m.range != 1 && !m.lame {
            continue;
        }
        if !m.lame && longest.contains_key(&(m.dx, m.dy, false, m.capture)) {
            continue;
        }
        out.insert(m);
    }
    for ((dx, dy, lame, capture), range) in longest {
        out.insert(Move {
            dx,
            dy,
            range,
            lame,
            capture,
        });
    }
    out
}

/// The moves magus reads from its Betza.
fn magus_moves(text: &str) -> Option<BTreeSet<Move>> {
    let atoms = magus_betza::parse(text).ok()?;
    let mut moves = BTreeSet::new();
    for a in atoms {
        if a.path == Path::MustJump {
            return None;
        }
        for &(dx, dy) in &a.steps {
            for (capture, allowed) in [(false, a.modality.moves()), (true, a.modality.captures())] {
                if allowed {
                    moves.insert(Move {
                        dx,
                        dy,
                        range: a.range,
                        lame: a.path == Path::Lame,
                        capture,
                    });
                }
            }
        }
    }
    Some(normalize(moves))
}

/// The letter of a leap (a, b) with a >= b.
fn letter_of(a: i8, b: i8) -> Option<char> {
    Some(match (a, b) {
        (1, 0) => 'W',
        (1, 1) => 'F',
        (2, 0) => 'D',
        (2, 1) => 'N',
        (2, 2) => 'A',
        (3, 0) => 'H',
        (3, 1) => 'C',
        (3, 2) => 'Z',
        (3, 3) => 'G',
        _ => return None,
    })
}

/// Direction prefixes tried, shortest first.
fn direction_prefixes() -> Vec<String> {
    let letters = ['f', 'b', 'l', 'r', 'v', 's', 'h'];
    let mut out = vec![String::new()];
    for a in letters {
        out.push(a.to_string());
    }
    for a in letters {
        for b in letters {
            out.push(format!("{a}{b}"));
        }
    }
    out
}

/// magus's Betza for a set of moves that share their leap, range, lameness and modality.
fn write_group(
    steps: &BTreeSet<(i8, i8)>,
    range: u8,
    lame: bool,
    modality: &str,
) -> Result<String, String> {
    let &(dx, dy) = steps.iter().next().expect("a group has a step");
    let (a, b) = (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()));
    let letter = letter_of(a, b).ok_or_else(|| format!("the leap ({dx},{dy}) has no letter"))?;
    let body = match (range, letter) {
        (1, l) => l.to_string(),
        (0, 'W') => "R".to_string(),
        (0, 'F') => "B".to_string(),
        (0, l) => format!("{l}{l}"),
        (n, l) => format!("{l}{n}"),
    };
    let lame = if lame { "n" } else { "" };
    let fits = |prefix: &str| -> bool {
        let text = format!("{modality}{lame}{prefix}{body}");
        magus_betza::parse(&text).is_ok_and(|atoms| {
            let got: BTreeSet<(i8, i8)> = atoms.iter().flat_map(|a| a.steps.clone()).collect();
            &got == steps
        })
    };
    let prefixes = direction_prefixes();
    if let Some(p) = prefixes.iter().find(|p| fits(p)) {
        return Ok(format!("{modality}{lame}{p}{body}"));
    }
    // One atom per step.
    let mut out = String::new();
    for &step in steps {
        let single: BTreeSet<(i8, i8)> = [step].into();
        let p = prefixes
            .iter()
            .find(|p| {
                let text = format!("{modality}{lame}{p}{body}");
                magus_betza::parse(&text).is_ok_and(|atoms| {
                    let got: BTreeSet<(i8, i8)> =
                        atoms.iter().flat_map(|a| a.steps.clone()).collect();
                    got == single
                })
            })
            .ok_or_else(|| format!("no magus direction selects ({},{})", step.0, step.1))?;
        out += &format!("{modality}{lame}{p}{body}");
    }
    Ok(out)
}

/// magus's Betza for a set of moves.
fn write(moves: &BTreeSet<Move>) -> Result<String, String> {
    // (leap class, range, lame) -> steps by modality.
    type Group = ((i8, i8), u8, bool);
    let mut groups: BTreeMap<Group, [BTreeSet<(i8, i8)>; 2]> = BTreeMap::new();
    for m in moves {
        let class = (m.dx.abs().max(m.dy.abs()), m.dx.abs().min(m.dy.abs()));
        groups.entry((class, m.range, m.lame)).or_default()[m.capture as usize]
            .insert((m.dx, m.dy));
    }
    let mut out = String::new();
    for ((_, range, lame), [quiet, capture]) in groups {
        let both: BTreeSet<(i8, i8)> = quiet.intersection(&capture).copied().collect();
        let quiet_only: BTreeSet<(i8, i8)> = quiet.difference(&both).copied().collect();
        let capture_only: BTreeSet<(i8, i8)> = capture.difference(&both).copied().collect();
        for (set, modality) in [(&both, ""), (&quiet_only, "m"), (&capture_only, "c")] {
            if !set.is_empty() {
                out += &write_group(set, range, lame, modality)?;
            }
        }
    }
    Ok(out)
}

/// A piece's moves in magus's Betza, from Fairy-Stockfish's. An error says what magus
/// cannot express.
pub fn translate(text: &str) -> Result<String, String> {
    let moves = fsf_moves(text)?;
    if moves.is_empty() {
        return Err("no moves at all (an immobile piece is not in magus)".into());
    }
    for m in &moves {
        let (a, b) = (m.dx.abs().max(m.dy.abs()), m.dx.abs().min(m.dy.abs()));
        if m.lame && !(a == 2 && (b == 0 || b == 2)) {
            return Err(format!(
                "'n' on the ({a},{b}) leap: magus has lame leaps of D and A only"
            ));
        }
    }
    // The text itself, when magus reads the same moves from it ('L' and 'J' are spelled
    // 'C' and 'Z' in magus).
    let respelled: String = text
        .chars()
        .map(|c| match c {
            'L' => 'C',
            'J' => 'Z',
            c => c,
        })
        .collect();
    if magus_moves(&respelled).as_ref() == Some(&moves) {
        return Ok(respelled);
    }
    let written = write(&moves)?;
    if magus_moves(&written).as_ref() != Some(&moves) {
        return Err(format!(
            "magus cannot write these moves in its Betza (tried '{written}')"
        ));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> BTreeSet<(i8, i8, u8, bool)> {
        fsf_moves(text)
            .unwrap()
            .into_iter()
            .map(|m| (m.dx, m.dy, m.range, m.capture))
            .collect()
    }

    #[test]
    fn plain_descriptions_pass_through() {
        for text in [
            "N", "mNcB", "fmWfF", "FfW", "WfF", "fsW", "KN", "QNAD", "mQ2cQ2", "nA", "NN",
        ] {
            assert_eq!(translate(text).unwrap(), text, "{text}");
        }
        assert_eq!(translate("NL").unwrap(), "NC");
    }

    #[test]
    fn octant_pairs_are_read_as_fairy_stockfish_reads_them() {
        // `frK`: the octant between forward and right, of each atom: (1,0) and (1,1). magus
        // (like XBoard) reads forward and right for W, so the text is rewritten.
        let moves = steps("frK");
        assert_eq!(moves.len(), 4, "{moves:?}");
        assert!(moves.contains(&(1, 0, 1, false)) && moves.contains(&(1, 1, 1, true)));
        let written = translate("frK").unwrap();
        assert_ne!(written, "frK");
        assert_eq!(magus_moves(&written).unwrap(), fsf_moves("frK").unwrap());
        // The same for the knight's forward pairs, which both dialects read alike.
        assert_eq!(translate("ffNfsN").unwrap(), "ffNfsN");
        assert_eq!(steps("fhN").len(), 8);
    }

    #[test]
    fn the_last_range_in_a_direction_wins() {
        // Fairy-Stockfish keeps one range per direction: R then W2 leaves a two-square rook.
        let moves = steps("RW2");
        assert!(moves.iter().all(|m| m.2 == 2), "{moves:?}");
        let written = translate("RW2").unwrap();
        assert_eq!(magus_moves(&written).unwrap(), fsf_moves("RW2").unwrap());
    }

    #[test]
    fn what_magus_cannot_express_is_refused_by_name() {
        for (text, says) in [
            ("mRcpR", "'p'"),
            ("gQ", "'g'"),
            ("fmWfceFifmnD", "'e'"),
            ("ifmnD", "'i'"),
            ("nN", "lame leaps of D and A only"),
            ("jD", "skips this letter"),
            ("Nx", "skips this letter"),
            ("", "no moves"),
            ("fm", "no atom"),
            ("W12", "one digit"),
        ] {
            let e = translate(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }
}

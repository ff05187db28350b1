//! Betza notation: piece moves as atoms with modifiers.
//!
//! Supported, and nothing else (anything else is an error that names the letter):
//! - leap atoms `W F D N A H C Z G` (offsets (1,0) (1,1) (2,0) (2,1) (2,2) (3,0) (3,1) (3,2)
//!   (3,3)), and the compounds `K` = WF, `R` = WW, `B` = FF, `Q` = RB;
//! - a range after an atom (`R3`, `B2`, `W4`; `0` or a doubled letter such as `NN` means no
//!   limit): the piece repeats the step and is blocked by the first occupied square;
//! - `m` moves only, `c` captures only (both by default);
//! - `n` (lame: the middle square must be empty) and `j` (the middle square must be
//!   occupied), on the single leaps `D` and `A`;
//! - directions `f b l r v s` and `h` (half, after a direction on an oblique atom: `fhN` is
//!   the four forward knight moves). On an oblique atom `fN` is the narrow forward pair,
//!   `fsN` the wide forward pair, `frN` the upper move of the right pair and `rfN` the right
//!   move of the forward pair, as in XBoard's extended Betza notation.
//!
//! Offsets are `(file, rank)` from White's side; Black's moves are mirrored by the caller.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Modality {
    MoveOnly,
    CaptureOnly,
    Both,
}

impl Modality {
    pub fn moves(self) -> bool {
        self != Modality::CaptureOnly
    }
    pub fn captures(self) -> bool {
        self != Modality::MoveOnly
    }
}

/// What the square between a two-square leap's origin and target must hold.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Path {
    /// An ordinary leap: anything may stand between.
    Free,
    /// `n`: the middle square must be empty.
    Lame,
    /// `j`: the middle square must be occupied.
    MustJump,
}

/// One group of moves of a piece: the same step in several directions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The steps, as (file, rank) offsets from White's side.
    pub steps: Vec<(i8, i8)>,
    /// How often the step may repeat: 1 for a leap, 0 for no limit.
    pub range: u8,
    pub modality: Modality,
    pub path: Path,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    /// The 0-based character position of the problem.
    pub position: usize,
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "at character {}: {}", self.position + 1, self.message)
    }
}

fn leap_offset(atom: char) -> Option<(i8, i8)> {
    Some(match atom {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

/// Parses a Betza string into atoms.
pub fn parse(text: &str) -> Result<Vec<Atom>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Err(BetzaError {
            position: 0,
            message: "empty move description".into(),
        });
    }
    let mut atoms = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let mut modality: Option<Modality> = None;
        let mut path = Path::Free;
        let mut directions = String::new();
        let mut direction_start = i;
        while i < chars.len() && chars[i].is_ascii_lowercase() {
            let c = chars[i];
            match c {
                'm' | 'c' => {
                    let this = if c == 'm' {
                        Modality::MoveOnly
                    } else {
                        Modality::CaptureOnly
                    };
                    modality = Some(match modality {
                        None => this,
                        Some(m) if m == this => m,
                        Some(_) => Modality::Both,
                    });
                }
                'n' => path = Path::Lame,
                'j' => path = Path::MustJump,
                'f' | 'b' | 'l' | 'r' | 'v' | 's' | 'h' => {
                    if directions.is_empty() {
                        direction_start = i;
                    }
                    directions.push(c);
                }
                other => {
                    return Err(BetzaError {
                        position: i,
                        message: format!(
                            "modifier '{other}' is not supported (supported: m c n j f b l r v s h)"
                        ),
                    });
                }
            }
            i += 1;
        }
        let Some(&letter) = chars.get(i) else {
            return Err(BetzaError {
                position: i,
                message: "modifiers without an atom after them".into(),
            });
        };
        if !letter.is_ascii_uppercase() {
            return Err(BetzaError {
                position: i,
                message: format!("expected an atom letter, found '{letter}'"),
            });
        }
        let leaps: Vec<char> = match letter {
            'K' => vec!['W', 'F'],
            'Q' => vec!['W', 'F'],
            'R' => vec!['W'],
            'B' => vec!['F'],
            l if leap_offset(l).is_some() => vec![l],
            other => {
                return Err(BetzaError {
                    position: i,
                    message: format!("unknown atom '{other}' (known: W F D N A H C Z G K R B Q)"),
                });
            }
        };
        let atom_position = i;
        i += 1;
        // Range: a doubled letter or a number.
        let mut range: u8 = if matches!(letter, 'R' | 'B' | 'Q') {
            0
        } else {
            1
        };
        if chars.get(i) == Some(&letter) && leap_offset(letter).is_some() {
            range = 0;
            i += 1;
        } else if chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
            let digits_start = i;
            while chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
                i += 1;
            }
            let number: String = chars[digits_start..i].iter().collect();
            range = match number.parse::<u8>() {
                Ok(n) if n <= 30 => n,
                _ => {
                    return Err(BetzaError {
                        position: digits_start,
                        message: format!("range {number} is too large (at most 30)"),
                    });
                }
            };
        }
        if path != Path::Free && !(matches!(letter, 'D' | 'A') && range == 1) {
            return Err(BetzaError {
                position: start,
                message: format!(
                    "'n' and 'j' apply only to the single leaps D and A, not to '{letter}' here"
                ),
            });
        }
        for leap in leaps {
            let (a, b) = leap_offset(leap).unwrap();
            let steps = select_directions(a, b, &directions).map_err(|message| BetzaError {
                position: direction_start,
                message,
            })?;
            if steps.is_empty() {
                return Err(BetzaError {
                    position: atom_position,
                    message: format!("directions '{directions}' select no move of '{letter}'"),
                });
            }
            atoms.push(Atom {
                steps,
                range,
                modality: modality.unwrap_or(Modality::Both),
                path,
            });
        }
    }
    Ok(atoms)
}

/// The steps of the leap `(a, b)` (a >= b >= 0) that the direction letters select.
fn select_directions(a: i8, b: i8, directions: &str) -> Result<Vec<(i8, i8)>, String> {
    let mut all: Vec<(i8, i8)> = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                let step = (x * sx, y * sy);
                if !all.contains(&step) {
                    all.push(step);
                }
            }
        }
    }
    if directions.is_empty() {
        return Ok(all);
    }
    let letters: Vec<char> = directions.chars().collect();
    let oblique = b != 0 && a != b;
    let orthogonal = b == 0;
    let mut selected: Vec<(i8, i8)> = Vec::new();
    let mut add = |pred: &dyn Fn(i8, i8) -> bool| {
        for &(x, y) in &all {
            if pred(x, y) && !selected.contains(&(x, y)) {
                selected.push((x, y));
            }
        }
    };
    let vertical = |c: char| c == 'f' || c == 'b';
    let horizontal = |c: char| c == 'l' || c == 'r';
    // The sign a direction letter asks for along its own axis.
    let sign = |c: char| if c == 'f' || c == 'r' { 1 } else { -1 };
    let mut i = 0;
    while i < letters.len() {
        let x = letters[i];
        let y = letters.get(i + 1).copied();
        if x == 'h' {
            return Err("'h' must follow a direction letter (as in fhN)".into());
        }
        if orthogonal {
            if y == Some('h') {
                return Err("'h' is only meaningful on oblique atoms such as N".into());
            }
            match x {
                'f' | 'b' => add(&|dx, dy| dx == 0 && dy.signum() == sign(x)),
                'l' | 'r' => add(&|dx, dy| dy == 0 && dx.signum() == sign(x)),
                'v' => add(&|dx, _| dx == 0),
                's' => add(&|_, dy| dy == 0),
                _ => unreachable!(),
            }
            i += 1;
            continue;
        }
        if !oblique {
            // Diagonal atoms: a single letter picks a pair, a vertical and a horizontal
            // letter together pick one diagonal.
            if y == Some('h') {
                return Err("'h' is only meaningful on oblique atoms such as N".into());
            }
            let pair =
                y.filter(|&y| (vertical(x) && horizontal(y)) || (horizontal(x) && vertical(y)));
            match (x, pair) {
                (_, Some(y)) => {
                    let (v, h) = if vertical(x) { (x, y) } else { (y, x) };
                    add(&|dx, dy| dy.signum() == sign(v) && dx.signum() == sign(h));
                    i += 2;
                }
                ('f' | 'b', None) => {
                    add(&|_, dy| dy.signum() == sign(x));
                    i += 1;
                }
                ('l' | 'r', None) => {
                    add(&|dx, _| dx.signum() == sign(x));
                    i += 1;
                }
                ('v' | 's', None) => {
                    add(&|_, _| true);
                    i += 1;
                }
                _ => unreachable!(),
            }
            continue;
        }
        // Oblique atoms: `a` is the long leg, `b` the short one.
        let long = a;
        let main_axis_is_vertical = |c: char| vertical(c);
        let on_axis =
            |c: char, dx: i8, dy: i8| -> i8 { if main_axis_is_vertical(c) { dy } else { dx } };
        match x {
            'v' => {
                add(&|_, dy| dy.abs() == long);
                i += 1;
            }
            's' => {
                add(&|dx, _| dx.abs() == long);
                i += 1;
            }
            _ => {
                match y {
                    Some(y) if y == x => {
                        add(&|dx, dy| on_axis(x, dx, dy) == long * sign(x));
                        i += 2;
                    }
                    Some('h') => {
                        add(&|dx, dy| on_axis(x, dx, dy).signum() == sign(x));
                        i += 2;
                    }
                    Some(y) if (vertical(x) && y == 's') || (horizontal(x) && y == 'v') => {
                        // The wide pair on x's side: short leg toward x.
                        add(&|dx, dy| on_axis(x, dx, dy) == b * sign(x));
                        i += 2;
                    }
                    Some(y) if (vertical(x) && horizontal(y)) || (horizontal(x) && vertical(y)) => {
                        // The member of y's pair that lies on x's side.
                        add(&|dx, dy| {
                            on_axis(y, dx, dy) == long * sign(y)
                                && on_axis(x, dx, dy).signum() == sign(x)
                        });
                        i += 2;
                    }
                    _ => {
                        add(&|dx, dy| on_axis(x, dx, dy) == long * sign(x));
                        i += 1;
                    }
                }
            }
        }
    }
    Ok(selected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps_of(text: &str) -> Vec<(i8, i8)> {
        let mut steps: Vec<(i8, i8)> = parse(text)
            .unwrap()
            .into_iter()
            .flat_map(|a| a.steps)
            .collect();
        steps.sort();
        steps
    }

    #[test]
    fn the_orthodox_pawn_moves_forward_and_captures_diagonally() {
        let atoms = parse("fmWfcF").unwrap();
        assert_eq!(atoms.len(), 2);
        assert_eq!(atoms[0].steps, vec![(0, 1)]);
        assert_eq!(atoms[0].modality, Modality::MoveOnly);
        let mut caps = atoms[1].steps.clone();
        caps.sort();
        assert_eq!(caps, vec![(-1, 1), (1, 1)]);
        assert_eq!(atoms[1].modality, Modality::CaptureOnly);
    }

    #[test]
    fn compounds_and_ranges() {
        let q2 = parse("Q2").unwrap();
        assert_eq!(q2.len(), 2);
        assert!(q2.iter().all(|a| a.range == 2 && a.steps.len() == 4));
        assert!(parse("R").unwrap().iter().all(|a| a.range == 0));
        assert_eq!(parse("NN").unwrap()[0].range, 0);
        assert_eq!(parse("W0").unwrap()[0].range, 0);
        assert_eq!(steps_of("K").len(), 8);
        // The Magician of Magician's Deathmatch: 8 blockable moves, 16 capture leaps.
        let m = parse("mB2cKcAcD").unwrap();
        let moves: usize = m
            .iter()
            .filter(|a| a.modality == Modality::MoveOnly)
            .map(|a| a.steps.len())
            .sum();
        let caps: usize = m
            .iter()
            .filter(|a| a.modality == Modality::CaptureOnly)
            .map(|a| a.steps.len())
            .sum();
        assert_eq!((moves, caps), (4, 16));
    }

    #[test]
    fn oblique_directions_follow_xboard() {
        assert_eq!(steps_of("fN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps_of("ffN"), vec![(-1, 2), (1, 2)]);
        assert_eq!(steps_of("fsN"), vec![(-2, 1), (2, 1)]);
        assert_eq!(steps_of("frN"), vec![(2, 1)]);
        assert_eq!(steps_of("rfN"), vec![(1, 2)]);
        assert_eq!(steps_of("fhN"), vec![(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(steps_of("vN"), vec![(-1, -2), (-1, 2), (1, -2), (1, 2)]);
        assert_eq!(steps_of("sN"), vec![(-2, -1), (-2, 1), (2, -1), (2, 1)]);
        assert_eq!(steps_of("lvN"), vec![(-1, -2), (-1, 2)]);
    }

    #[test]
    fn diagonal_and_orthogonal_directions() {
        assert_eq!(steps_of("fF"), vec![(-1, 1), (1, 1)]);
        assert_eq!(steps_of("frF"), vec![(1, 1)]);
        assert_eq!(steps_of("rfF"), vec![(1, 1)]);
        assert_eq!(steps_of("lF"), vec![(-1, -1), (-1, 1)]);
        assert_eq!(steps_of("vW"), vec![(0, -1), (0, 1)]);
        assert_eq!(steps_of("sR"), vec![(-1, 0), (1, 0)]);
        assert_eq!(steps_of("fbW"), vec![(0, -1), (0, 1)]);
    }

    #[test]
    fn lame_leaps() {
        let a = parse("nA").unwrap();
        assert_eq!(a[0].path, Path::Lame);
        assert_eq!(parse("jD").unwrap()[0].path, Path::MustJump);
    }

    #[test]
    fn errors_name_the_problem() {
        let e = parse("pR").unwrap_err();
        assert!(e.message.contains("'p'"), "{e}");
        let e = parse("X").unwrap_err();
        assert!(e.message.contains("unknown atom 'X'"), "{e}");
        let e = parse("fm").unwrap_err();
        assert!(e.message.contains("without an atom"), "{e}");
        assert!(parse("nN").is_err());
        assert!(parse("hN").is_err());
        assert!(parse("fhW").is_err());
        assert!(parse("W99").is_err());
        assert!(parse("").is_err());
        assert!(parse("W3x").is_err());
    }
}

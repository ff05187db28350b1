//! Fairy-Stockfish's variant files (`variants.ini`), read as a second input format.
//!
//! A section is translated into a magus definition only when every rule it sets, its own and
//! its ancestors', has the same meaning in magus; otherwise it is refused, each problem naming
//! the key (and the line) behind it. The parts: `ini` (the file's layout), `keys` (what magus
//! does with each key), `pieces` (Fairy-Stockfish's piece types), `region` (its square sets),
//! `betza` (its Betza dialect), `rules` (a section's rules, with inheritance) and `translate`
//! (rules to magus's TOML).

pub mod betza;
pub mod ini;
pub mod keys;
pub mod pieces;
pub mod region;
pub mod rules;
pub mod translate;

pub use rules::Rules;

use super::definitions::{Definition, Problem};
use super::limits::{MAX_INHERITANCE_DEPTH, MAX_SECTIONS};
use super::parse_variant;

/// Fairy-Stockfish's built-in variants, which a section may name as its parent. magus has
/// `chess` (and its XBoard name `normal`) among them; the others are refused by name.
pub const FSF_BUILT_IN: &[&str] = &[
    "chess",
    "normal",
    "fischerandom",
    "nocastle",
    "armageddon",
    "torpedo",
    "berolina",
    "pawnsideways",
    "pawnback",
    "legan",
    "fairy",
    "makruk",
    "makpong",
    "cambodian",
    "karouk",
    "asean",
    "ai-wok",
    "shatranj",
    "chaturanga",
    "amazon",
    "georgian",
    "nightrider",
    "grasshopper",
    "hoppelpoppel",
    "newzealand",
    "kingofthehill",
    "racingkings",
    "knightmate",
    "misere",
    "losers",
    "giveaway",
    "antichess",
    "suicide",
    "codrus",
    "extinction",
    "kinglet",
    "threekings",
    "horde",
    "petrified",
    "nocheckatomic",
    "atomic",
    "atomar",
    "isolation",
    "isolation7x7",
    "snailtrail",
    "fox-and-hounds",
    "duck",
    "joust",
    "3check",
    "5check",
    "crazyhouse",
    "loop",
    "chessgi",
    "bughouse",
    "koedem",
    "pocketknight",
    "placement",
    "sittuyin",
    "seirawan",
    "shouse",
    "dragon",
    "paradigm",
    "minishogi",
    "mini",
    "kyotoshogi",
    "micro",
    "dobutsu",
    "gorogoro",
    "judkins",
    "torishogi",
    "euroshogi",
    "losalamos",
    "gardner",
    "almost",
    "sortofalmost",
    "chigorin",
    "perfect",
    "spartan",
    "shatar",
    "coregal",
    "clobber",
    "breakthrough",
    "ataxx",
    "flipersi",
    "flipello",
    "minixiangqi",
    "raazuvaa",
    "shogi",
    "checkshogi",
    "shoshogi",
    "yarishogi",
    "okisakishogi",
    "capablanca",
    "capahouse",
    "caparandom",
    "gothic",
    "janus",
    "modern",
    "chancellor",
    "embassy",
    "centaur",
    "gustav3",
    "jesonmor",
    "courier",
    "grand",
    "opulent",
    "tencubed",
    "omicron",
    "troitzky",
    "wolf",
    "shako",
    "clobber10",
    "flipello10",
    "amazons",
    "xiangqi",
    "manchu",
    "supply",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

/// The rules of a section read before (by an earlier `load`), by name.
pub type Parents<'a> = &'a dyn Fn(&str) -> Option<Rules>;

/// Reads every section of a file. Each gives a [`Definition`]; the rules of each section
/// are returned too, so that later files may inherit from them.
pub fn read(text: &str, source: &str, parents: Parents) -> (Vec<Definition>, Vec<(String, Rules)>) {
    let sections = ini::parse(text);
    if sections.len() > MAX_SECTIONS {
        // Each section costs a translation and a compile: refused before any of them.
        let refused = Definition {
            name: String::new(),
            line: None,
            outcome: Err(vec![Problem {
                source: source.to_string(),
                line: None,
                section: None,
                key: None,
                message: format!(
                    "{} sections, more than the {MAX_SECTIONS} one text may define; nothing was read",
                    sections.len()
                ),
            }]),
            notes: Vec::new(),
        };
        return (vec![refused], Vec::new());
    }
    let mut definitions = Vec::new();
    // Sections read so far: name, rules (none when the parent was unknown), own problems.
    let mut read: Vec<(String, Option<Rules>, bool)> = Vec::new();
    for (index, section) in sections.iter().enumerate() {
        let name = section.name.clone();
        let heading = match &section.parent {
            Some(p) => format!("[{name}:{p}]"),
            None => format!("[{name}]"),
        };
        let problem = |line: Option<usize>, key: Option<&str>, message: String| Problem {
            source: source.to_string(),
            line,
            section: Some(name.clone()),
            key: key.map(str::to_string),
            message,
        };
        let mut problems: Vec<Problem> = section
            .problems
            .iter()
            .map(|(line, m)| problem(Some(*line), None, m.clone()))
            .collect();
        if !name.is_empty()
            && !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            problems.push(problem(
                Some(section.line),
                None,
                format!("'{name}': a magus variant name is letters, digits, '-' and '_'"),
            ));
        }
        if let Some(first) = sections[..index].iter().find(|s| s.name == name) {
            problems.push(problem(
                Some(section.line),
                None,
                format!(
                    "[{name}] is defined twice (first at line {}); Fairy-Stockfish keeps the first",
                    first.line
                ),
            ));
        }
        let base = match section.parent.as_deref() {
            None => Some(Rules::template()),
            Some(p) => {
                let earlier = read.iter().rev().find(|(n, _, _)| n == p);
                match earlier {
                    Some((_, rules, own_problems)) => {
                        if rules.is_none() {
                            problems.push(problem(
                                Some(section.line),
                                None,
                                format!(
                                    "parent [{p}] cannot be read: its parent is unknown or too deep (listed with it)"
                                ),
                            ));
                        } else if *own_problems {
                            problems.push(problem(
                                Some(section.line),
                                None,
                                format!("parent [{p}] has problems of its own (listed with it)"),
                            ));
                        }
                        rules.clone()
                    }
                    None if p == "chess" || p == "normal" => Some(Rules::chess()),
                    None => match parents(p) {
                        Some(rules) => Some(rules),
                        None => {
                            let later = sections[index + 1..].iter().find(|s| s.name == p);
                            let message = if let Some(later) = later {
                                format!(
                                    "parent '{p}' comes later (line {}); Fairy-Stockfish reads sections in order",
                                    later.line
                                )
                            } else if FSF_BUILT_IN.contains(&p) {
                                format!(
                                    "parent '{p}' is a Fairy-Stockfish built-in variant that magus does not have (of those, magus has chess)"
                                )
                            } else {
                                format!("parent '{p}': no variant of that name to inherit from")
                            };
                            problems.push(problem(Some(section.line), None, message));
                            None
                        }
                    },
                }
            }
        };
        // The chain of parents, which a section's rules count: refused past the limit.
        let base = match base {
            Some(b) if b.depth >= MAX_INHERITANCE_DEPTH => {
                problems.push(problem(
                    Some(section.line),
                    None,
                    format!(
                        "inherits through more than {MAX_INHERITANCE_DEPTH} sections (the most a chain of parents may have)"
                    ),
                ));
                None
            }
            other => other,
        };
        let own_start = problems.len();
        let rules =
            base.as_ref()
                .unwrap_or(&Rules::template())
                .apply(section, source, &mut problems);
        if base.is_none() {
            // Without the parent's pieces, letters in the section's keys cannot be judged.
            let mut index = 0;
            problems.retain(|p| {
                index += 1;
                index <= own_start || !p.message.ends_with("is not a piece letter of this variant")
            });
        }
        let own_problems = problems.len() > own_start || !section.problems.is_empty();
        let mut notes = Vec::new();
        let mut variant = None;
        if base.is_some() {
            let t = translate::translate(&rules, &name, &heading, source);
            problems.extend(t.problems);
            notes = t.notes;
            if problems.is_empty()
                && let Some(toml) = t.toml
            {
                match parse_variant(&toml, &format!("{source} {heading}")) {
                    Ok(v) => variant = Some(v),
                    Err(e) => problems.push(problem(
                        Some(section.line),
                        None,
                        format!("the translation is refused by magus: {e}"),
                    )),
                }
            }
        } else {
            // The section's own planned keys, judged without its parent.
            let t = translate::translate(&rules, &name, &heading, source);
            problems.extend(t.problems.into_iter().filter(|p| {
                p.line.is_some() && rules.planned.contains_key(p.key.as_deref().unwrap_or(""))
            }));
        }
        // In the order of the file; what was inherited or is a default comes last.
        problems.sort_by_key(|p| p.line.unwrap_or(usize::MAX));
        read.push((name.clone(), base.map(|_| rules.clone()), own_problems));
        definitions.push(Definition {
            name,
            line: Some(section.line),
            outcome: variant.ok_or(problems),
            notes,
        });
    }
    let rules = read
        .into_iter()
        .filter_map(|(n, r, _)| r.map(|r| (n, r)))
        .collect();
    (definitions, rules)
}

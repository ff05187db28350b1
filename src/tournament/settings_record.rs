//! The settings that make a match's games what they are, written into its files (a
//! `MatchSettings` tag on every PGN game, a `# magus match settings:` line under the header of
//! a results file), so that `--merge` can refuse a shard of another match: another seed,
//! variant, engine, limit, openings file, adjudication, or another number of shards.
//!
//! The record is one line of `key=value` entries separated by `; `, readable by a person and
//! the same in both kinds of file. Left out, because they do not change the games or differ
//! from machine to machine for the same match: the engines' commands and folders (the name
//! stands for the engine), a `VariantPath` option (a folder), the concurrency, the event name,
//! the handshake timeout, the SPRT (it stops a match, it does not change its games), and the
//! seed when no random plies are drawn (it is then unused, and by default it is the clock's).

use super::Config;
use super::openings::Opening;

/// The PGN tag that holds the record.
pub const PGN_TAG: &str = "MatchSettings";

/// The start of the results file's line that holds the record.
pub const RESULTS_PREFIX: &str = "# magus match settings: ";

/// A match's settings as ordered `(key, value)` entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingsRecord(Vec<(String, String)>);

impl SettingsRecord {
    /// The settings of `config` that change its games.
    pub fn of(config: &Config) -> SettingsRecord {
        let mut e: Vec<(String, String)> = Vec::new();
        let mut put = |key: &str, value: String| e.push((key.to_string(), value));
        let s = &config.settings;
        put("variant", s.variant.name.clone());
        put("limit", s.limit.describe());
        put("time-margin", format!("{} ms", s.margin.as_millis()));
        put(
            "move-timeout",
            format!("{} s", s.move_timeout.as_secs_f64()),
        );
        for (i, spec) in config.engines.iter().enumerate() {
            let key = format!("engine.{}", i + 1);
            put(&key, spec.name.clone());
            put(
                &format!("{key}.proto"),
                format!("{:?}", spec.proto).to_lowercase(),
            );
            if let Some(limit) = &spec.limit {
                put(&format!("{key}.limit"), limit.describe());
            }
            for (name, value) in &spec.options {
                if !name.eq_ignore_ascii_case("VariantPath") {
                    put(&format!("{key}.option.{name}"), value.clone());
                }
            }
        }
        put("games", config.games.to_string());
        put("rounds", config.rounds.to_string());
        if let Some((_, n)) = config.shard {
            put("shards", n.to_string());
        }
        if !config.openings.is_empty() {
            put("openings", openings_text(&config.openings));
        }
        if config.random_plies > 0 {
            put("random-plies", config.random_plies.to_string());
            put("seed", config.seed.to_string());
            if let Some(cp) = config.opening_balance {
                put("opening-balance", cp.to_string());
            }
        }
        if let Some(m) = s.max_plies {
            put("max-plies", m.to_string());
        }
        if let Some(r) = s.resign {
            put("adjudicate-resign", format!("{},{}", r.score, r.moves));
        }
        if let Some(d) = s.draw {
            put(
                "adjudicate-draw",
                format!("{},{},{}", d.score, d.moves, d.after),
            );
        }
        if let Some(p) = &s.payoff {
            put(
                "payoff",
                format!(
                    "rule150 {}, refused draw decays {}",
                    p.rule150, p.refused_draw_decays
                ),
            );
        }
        SettingsRecord(e)
    }

    /// The record as one line.
    pub fn to_text(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| format!("{}={}", escape(k), escape(v)))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Reads [`SettingsRecord::to_text`]'s line.
    pub fn parse(text: &str) -> Result<SettingsRecord, String> {
        let mut entries = Vec::new();
        for part in text.trim().split("; ") {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("match settings: '{part}' is not key=value"))?;
            entries.push((unescape(k)?, unescape(v)?));
        }
        Ok(SettingsRecord(entries))
    }

    /// How `self` differs from `other`, from `self`'s side (`seed 78, not 77`), or `None`
    /// when they are the same settings.
    pub fn difference(&self, other: &SettingsRecord) -> Option<String> {
        let get = |r: &SettingsRecord, key: &str| {
            r.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone())
        };
        let mut keys: Vec<&String> = self.0.iter().map(|(k, _)| k).collect();
        for (k, _) in &other.0 {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let differences: Vec<String> = keys
            .into_iter()
            .filter_map(|key| match (get(self, key), get(other, key)) {
                (Some(a), Some(b)) if a != b => Some(format!("{key} {a}, not {b}")),
                (Some(a), None) => Some(format!("{key} {a}, not none")),
                (None, Some(b)) => Some(format!("no {key}, not {b}")),
                _ => None,
            })
            .collect();
        (!differences.is_empty()).then(|| differences.join("; "))
    }
}

/// An openings file's positions in short: their number and a hash of their text, the same on
/// every machine and in every version (FNV-1a, 64 bits).
fn openings_text(openings: &[Opening]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for o in openings {
        let line = format!(
            "{}|{}\n",
            o.fen.as_deref().unwrap_or("-"),
            o.moves.join(" ")
        );
        for byte in line.bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{} positions, hash {hash:016x}", openings.len())
}

/// `%`, the separators, the PGN string's quote and backslash, and control characters as `%XX`.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | ';' | '=' | '"' | '\\') || c.is_control() {
            let mut bytes = [0u8; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                out += &format!("%{b:02X}");
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn unescape(text: &str) -> Result<String, String> {
    let bad = || format!("match settings: '{text}' has a bad %-escape");
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&b, tail)) = rest.split_first() {
        if b == b'%' {
            let hex = tail.get(..2).ok_or_else(bad)?;
            let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
            bytes.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            rest = &tail[2..];
        } else {
            bytes.push(b);
            rest = tail;
        }
    }
    String::from_utf8(bytes).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(entries: &[(&str, &str)]) -> SettingsRecord {
        SettingsRecord(
            entries
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn a_record_reads_back_with_every_separator_in_its_values() {
        let r = record(&[
            ("variant", "magi"),
            ("engine.1.option.Odd;=Name", "a; b=c %41 \"q\" \\ \t end"),
        ]);
        let text = r.to_text();
        assert!(!text.contains(['"', '\\', '\t']), "{text}");
        assert_eq!(text.matches("; ").count(), 1, "{text}");
        assert_eq!(SettingsRecord::parse(&text).unwrap(), r);
        assert!(SettingsRecord::parse("variant=chess; seed=%4").is_err());
        assert!(SettingsRecord::parse("variant").is_err());
    }

    #[test]
    fn the_difference_names_each_setting_that_differs() {
        let a = record(&[("variant", "chess"), ("seed", "78"), ("shards", "3")]);
        let b = record(&[("variant", "chess"), ("seed", "77"), ("max-plies", "60")]);
        assert_eq!(a.difference(&a.clone()), None);
        assert_eq!(
            a.difference(&b).unwrap(),
            "seed 78, not 77; shards 3, not none; no max-plies, not 60"
        );
    }
}

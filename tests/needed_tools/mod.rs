//! Tests that need outside tools (python-chess, XBoard, a browser): whether they run, are
//! skipped with a word on standard error, or fail because CI is set and a tool is missing.

#![allow(dead_code)]

use std::io::Write;
use std::process::Command;

pub fn works(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// What a test that needs outside tools does.
#[derive(Debug, PartialEq)]
enum Decision {
    Run,
    Skip(String),
    Fail(String),
}

/// Whether the value of the `CI` environment variable (`None`: not set) means a CI run.
fn in_ci(ci: Option<&str>) -> bool {
    match ci {
        None => false,
        Some(value) => {
            let value = value.trim();
            !(value.is_empty() || value == "0" || value.eq_ignore_ascii_case("false"))
        }
    }
}

/// `missing`: the tools that are not installed. Everything there: run; something missing:
/// skip, or fail in CI.
fn decide(missing: &[String], ci: Option<&str>) -> Decision {
    if missing.is_empty() {
        return Decision::Run;
    }
    let reason = format!(
        "not installed: {} (.ci/install-clients installs them)",
        missing.join(", ")
    );
    if in_ci(ci) {
        Decision::Fail(reason)
    } else {
        Decision::Skip(reason)
    }
}

/// Whether `test` can run; prints why not when it is skipped, and fails in CI.
pub fn can_run(test: &str, missing: Vec<String>) -> bool {
    let ci = std::env::var("CI").ok();
    match decide(&missing, ci.as_deref()) {
        Decision::Run => true,
        Decision::Skip(reason) => {
            // Not eprintln!: the harness hides what a passing test prints that way.
            let _ = writeln!(std::io::stderr(), "skipped: {test}: {reason}");
            false
        }
        Decision::Fail(reason) => panic!("{test}: {reason}; CI is set, so this is a failure"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_client_is_skipped_outside_ci_and_fails_in_ci() {
        let missing = vec!["xboard".to_string(), "xvfb-run (Xvfb)".to_string()];
        for ci in [None, Some(""), Some("0"), Some("false"), Some("FALSE")] {
            match decide(&missing, ci) {
                Decision::Skip(reason) => {
                    assert!(reason.contains("xboard, xvfb-run (Xvfb)"), "{reason}")
                }
                other => panic!("CI={ci:?}: {other:?}"),
            }
        }
        for ci in [Some("true"), Some("1"), Some("yes"), Some("github")] {
            match decide(&missing, ci) {
                Decision::Fail(reason) => assert!(reason.contains("xboard"), "{reason}"),
                other => panic!("CI={ci:?}: {other:?}"),
            }
        }
        for ci in [None, Some("true")] {
            assert_eq!(decide(&[], ci), Decision::Run, "CI={ci:?}");
        }
    }

    #[test]
    fn a_program_that_is_not_there_counts_as_missing() {
        assert!(!works("magus-no-such-client-program", &["--version"]));
        assert!(
            !works("false", &[]),
            "a tool that fails its probe is missing too"
        );
        assert!(works(env!("CARGO_BIN_EXE_magus"), &["--help"]));
    }
}

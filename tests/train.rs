//! `magus train` from the command line: self-play data in, a net out that the engine loads
//! for the variant, a checkpoint to resume from, and clear refusals.

mod common;

use std::path::{Path, PathBuf};

use common::{magus, succeeds, temp_dir};

use magus::eval::nnue::{FeatureSet, Network, check_fits};
use magus::game::AnyPosition;
use magus::variant::Registry;
use magus::with_position;

fn data(dir: &Path, variant: &str) -> PathBuf {
    let file = dir.join(format!("{variant}.data"));
    let f = file.to_str().unwrap();
    succeeds(&[
        "datagen",
        "--variant",
        variant,
        "--games",
        "4",
        "--nodes",
        "300",
        "--seed",
        "3",
        "-o",
        f,
    ]);
    file
}

/// A net trained on a few games is a net of its variant, which the engine loads; the epochs
/// are reported, and a run resumed from the checkpoint goes on after the epoch it had done.
#[test]
fn a_trained_net_loads_for_its_variant_and_training_resumes() {
    let dir = temp_dir("net");
    let registry = Registry::builtin();
    for variant in ["chess", "magician-chess"] {
        let data = data(&dir, variant);
        let net = dir.join(format!("{variant}.nnue"));
        let (d, n) = (data.to_str().unwrap(), net.to_str().unwrap());
        let common = ["train", "--variant", variant, d, "-o", n, "--hidden", "16"];
        let out = succeeds(&[&common[..], &["--epochs", "1"]].concat());
        assert!(out.contains("epoch   1/1  loss "), "{out}");
        let out = succeeds(&[&common[..], &["--epochs", "3", "--resume"]].concat());
        assert!(out.contains("resuming after epoch 1"), "{out}");
        assert!(
            out.contains("epoch   3/3") && !out.contains("epoch   1/3"),
            "{out}"
        );
        let loaded = Network::from_bytes(&std::fs::read(&net).unwrap()).unwrap();
        let v = registry.get(variant).unwrap();
        let start = AnyPosition::from_fen(v, None).unwrap();
        with_position!(&start, p => check_fits(&loaded, v, &FeatureSet::of(p.layout())).unwrap());
        assert_eq!(loaded.hidden, 16);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `magus` with `args` then `extra` fails, and its error says `says`.
fn refused(args: &[&str], extra: &[&str], says: &str) {
    let run = magus(&[args, extra].concat());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success() && err.contains(says),
        "{extra:?}: {err}"
    );
}

/// `--init` starts from a net's weights: with a learning rate too small to move them, the
/// net written is the net read; a net of another shape, kind or variant is refused by name; a run
/// from a net resumes from its checkpoint.
#[test]
fn training_goes_on_from_a_net() {
    let dir = temp_dir("init");
    let data = data(&dir, "chess");
    let first = dir.join("first.nnue");
    let next = dir.join("next.nnue");
    let (d, f, n) = (
        data.to_str().unwrap(),
        first.to_str().unwrap(),
        next.to_str().unwrap(),
    );
    let shape = ["--hidden", "16", "--on-hce", "--epochs", "1"];
    succeeds(&[&["train", "--variant", "chess", d, "-o", f][..], &shape].concat());
    succeeds(
        &[
            &["train", "--variant", "chess", d, "-o", n, "--init", f][..],
            &shape,
            &["--rate", "1e-9"],
        ]
        .concat(),
    );
    let read = |path: &Path| Network::from_bytes(&std::fs::read(path).unwrap()).unwrap();
    assert_eq!(read(&next), read(&first), "a step of 1e-9 changed the net");
    let from_first = ["train", "--variant", "chess", d, "-o", n, "--init", f];
    refused(&from_first, &["--hidden", "32", "--on-hce"], "16 hidden");
    refused(&from_first, &["--hidden", "16"], "hand-made");
    let magi_net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/magi.nnue");
    refused(
        &[
            "train",
            "--variant",
            "chess",
            d,
            "-o",
            n,
            "--init",
            magi_net,
        ],
        &["--hidden", "64", "--on-hce"],
        "for the variant magi",
    );
    // An interrupted run goes on from its checkpoint, the net still pulling it.
    let out = succeeds(
        &[
            &[
                "train",
                "--variant",
                "chess",
                d,
                "-o",
                n,
                "--init",
                f,
                "--resume",
            ][..],
            &["--hidden", "16", "--on-hce", "--epochs", "2"],
        ]
        .concat(),
    );
    assert!(
        out.contains("resuming after epoch 1") && out.contains("epoch   2/2"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Bad settings and files are refused on one line naming the flag or the file.
#[test]
fn bad_settings_are_refused_by_name() {
    let dir = temp_dir("bad");
    let data = data(&dir, "chess");
    let d = data.to_str().unwrap();
    let out = dir.join("x.nnue");
    let o = out.to_str().unwrap();
    let train = ["train", "--variant", "chess", d, "-o", o];
    refused(&train, &["--hidden", "20"], "--hidden");
    refused(&train, &["--lambda", "2"], "--lambda");
    refused(&train, &["--epochs", "0"], "--epochs");
    refused(&train, &["--resume"], "--resume");
    let run = magus(&["train", "--variant", "magi", d, "-o", o]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && err.contains("chess"), "{err}");
    assert!(!out.exists(), "no net is written by a refused run");
    std::fs::remove_dir_all(&dir).ok();
}

/// The next generation's games: `datagen --eval-file` plays with the net and records its
/// checksum in the file's header. Its games are not the hand-made evaluation's (same seed,
/// same openings), a file of one net's games is not continued by another player, and a net
/// of another variant is refused by name.
#[test]
fn a_net_plays_the_next_generations_games() {
    let dir = temp_dir("generation");
    let first = data(&dir, "chess");
    let net = dir.join("chess.nnue");
    let (d, n) = (first.to_str().unwrap(), net.to_str().unwrap());
    succeeds(&[
        "train",
        "--variant",
        "chess",
        d,
        "-o",
        n,
        "--hidden",
        "16",
        "--epochs",
        "1",
    ]);
    let next = dir.join("next.data");
    let x = next.to_str().unwrap();
    let generation = [
        "datagen",
        "--variant",
        "chess",
        "--nodes",
        "300",
        "--seed",
        "3",
        "-o",
        x,
    ];
    succeeds(&[&generation[..], &["--games", "4", "--eval-file", n]].concat());
    let checksum = Network::from_bytes(&std::fs::read(&net).unwrap())
        .unwrap()
        .checksum();
    let text = std::fs::read_to_string(&next).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.ends_with(&format!(" net={checksum:016x}")),
        "{header}"
    );
    let games = |t: &str| t.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    let by_hce = std::fs::read_to_string(&first).unwrap();
    assert_eq!(games(&text).len(), 4);
    assert_ne!(games(&text), games(&by_hce), "the net played its own moves");

    // Continued without the net: refused, and the file is as it was.
    let run = magus(&[&generation[..], &["--games", "6"]].concat());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success() && err.contains("net"), "{err}");
    assert_eq!(std::fs::read_to_string(&next).unwrap(), text);

    let run = magus(&[
        "datagen",
        "--variant",
        "magi",
        "--games",
        "1",
        "--eval-file",
        n,
        "-o",
        dir.join("magi.data").to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        !run.status.success() && err.contains("--eval-file") && err.contains("chess"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

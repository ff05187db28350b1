//! A quantised net and its file.
//!
//! The net: each view's inputs feed one hidden layer (`hidden` neurons, the same weights for
//! both views); the side to move's layer and the other side's, each through a squared
//! clipped ReLU, feed one output. The output may come in buckets by material: a set of
//! output weights and a bias for each bucket, the bucket chosen by the pieces on the board
//! (`bucket_of`). In integers: hidden values are the float values × `QA`, output weights ×
//! `QB`, the output bias × `QA·QB`; the output × `SCALE` is centipawns.
//!
//! The file, little-endian: `MAGUSNET`, the format version (u32), the variant's name (u16
//! length, UTF-8), the feature set (files, ranks, kinds: u8 each; then the inputs, u32), the
//! hidden size (u32); from version 2 the buckets and the pieces per bucket (u32 each); the
//! weights (input weights i16 by input then neuron, hidden biases i16, then for each bucket
//! its output weights i16, side to move's first, then the output biases i32, one a bucket),
//! and an FNV-1a checksum (u64) of everything before it. A net of one bucket is written in
//! version 1, which has no bucket fields, so that its bytes and its checksum (which data
//! files record) are those of a net written before buckets existed. Version 3 is version 2
//! with one more u32 after the bucket fields: 1 when the net's output is a correction added
//! to the hand-made evaluation (`on_hce`); only such nets are written in it.

use super::features::FeatureSet;

pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;
const MAGIC: &[u8; 8] = b"MAGUSNET";
/// The format of a net with one output bucket.
const VERSION_ONE_BUCKET: u32 = 1;
/// The format of a net with output buckets.
const VERSION: u32 = 2;
/// The format of a net that corrects the hand-made evaluation.
const VERSION_ON_HCE: u32 = 3;
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 16;
/// The largest output weight (in size) a net may have: it keeps the output's sums in range.
pub const MAX_OUTPUT_WEIGHT: i16 = 127;
/// The largest hidden layer a file may ask for (a bound on what a file can make us allocate).
pub const MAX_HIDDEN: usize = 2048;

/// A net ready to evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    pub variant: String,
    pub files: u8,
    pub ranks: u8,
    pub kinds: u8,
    pub inputs: usize,
    pub hidden: usize,
    /// `[input * hidden + neuron]`
    pub input_weights: Vec<i16>,
    pub hidden_bias: Vec<i16>,
    /// Output buckets (1: none).
    pub buckets: usize,
    /// Pieces on the board, beyond two, per bucket (`bucket_of`).
    pub pieces_per_bucket: usize,
    /// For each bucket: the side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    /// One a bucket.
    pub output_bias: Vec<i32>,
    /// The net's output is a correction: the evaluation is the hand-made one plus it.
    pub on_hce: bool,
}

/// The output bucket of a position with `pieces` pieces on the board: one bucket for each
/// `per_bucket` pieces beyond the first two, the last holding the rest. The engine and the
/// trainer both choose by this.
#[inline(always)]
pub fn bucket_of(pieces: usize, buckets: usize, per_bucket: usize) -> usize {
    (pieces.saturating_sub(2) / per_bucket.max(1)).min(buckets.saturating_sub(1))
}

/// The pieces per bucket that spread a variant's material, `start_pieces` on the board at
/// the start, evenly over `buckets`.
pub fn pieces_per_bucket(start_pieces: usize, buckets: usize) -> usize {
    start_pieces
        .saturating_sub(2)
        .div_ceil(buckets.max(1))
        .max(1)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Reads a file's fields in order, naming the first that is missing.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the file ends before its {what}"))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.take(1, what)?[0])
    }
    fn u16(&mut self, what: &str) -> Result<u16, String> {
        Ok(u16::from_le_bytes(self.take(2, what)?.try_into().unwrap()))
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        Ok(u32::from_le_bytes(self.take(4, what)?.try_into().unwrap()))
    }
    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>, String> {
        let bytes = self.take(n.checked_mul(2).ok_or("size overflow")?, what)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
}

impl Network {
    /// Whether the net was made for inputs of this shape.
    pub fn fits(&self, set: &FeatureSet) -> Result<(), String> {
        if (self.files, self.ranks, self.kinds) != (set.files, set.ranks, set.kinds)
            || self.inputs != set.count()
        {
            return Err(format!(
                "the net's inputs ({}x{} board, {} piece kinds, {} inputs) are not this \
                 variant's ({}x{}, {} kinds, {} inputs)",
                self.files,
                self.ranks,
                self.kinds,
                self.inputs,
                set.files,
                set.ranks,
                set.kinds,
                set.count()
            ));
        }
        Ok(())
    }

    /// The file's checksum: names this net (a data file records which net played its games).
    pub fn checksum(&self) -> u64 {
        let bytes = self.to_bytes();
        let (_, sum) = bytes.split_at(bytes.len() - 8);
        u64::from_le_bytes(sum.try_into().expect("eight bytes"))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        let version = if self.on_hce {
            VERSION_ON_HCE
        } else if self.buckets == 1 {
            VERSION_ONE_BUCKET
        } else {
            VERSION
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(self.variant.len() as u16).to_le_bytes());
        out.extend_from_slice(self.variant.as_bytes());
        out.extend_from_slice(&[self.files, self.ranks, self.kinds]);
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        if version != VERSION_ONE_BUCKET {
            out.extend_from_slice(&(self.buckets as u32).to_le_bytes());
            out.extend_from_slice(&(self.pieces_per_bucket as u32).to_le_bytes());
        }
        if version == VERSION_ON_HCE {
            out.extend_from_slice(&1u32.to_le_bytes());
        }
        for list in [&self.input_weights, &self.hidden_bias, &self.output_weights] {
            for w in list.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        for b in &self.output_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a net file; the error says what is wrong with it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, String> {
        if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a magus net file (it does not begin with MAGUSNET)".into());
        }
        if bytes.len() < MAGIC.len() + 8 {
            return Err("the file is too short to be a net".into());
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let version = r.u32("version")?;
        if ![VERSION_ONE_BUCKET, VERSION, VERSION_ON_HCE].contains(&version) {
            return Err(format!(
                "net format version {version}; this magus reads versions \
                 {VERSION_ONE_BUCKET} to {VERSION_ON_HCE}"
            ));
        }
        if fnv1a(body) != u64::from_le_bytes(sum.try_into().unwrap()) {
            return Err("the checksum does not match: the file is damaged".into());
        }
        let name_len = r.u16("variant name")? as usize;
        let variant = String::from_utf8(r.take(name_len, "variant name")?.to_vec())
            .map_err(|_| "the variant name is not UTF-8")?;
        let (files, ranks, kinds) = (r.u8("files")?, r.u8("ranks")?, r.u8("kinds")?);
        let inputs = r.u32("input count")? as usize;
        let hidden = r.u32("hidden size")? as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(format!(
                "hidden size {hidden} (a multiple of 16 up to {MAX_HIDDEN})"
            ));
        }
        let (buckets, pieces_per_bucket) = if version == VERSION_ONE_BUCKET {
            (1, 1)
        } else {
            (
                r.u32("buckets")? as usize,
                r.u32("pieces per bucket")? as usize,
            )
        };
        let on_hce = if version == VERSION_ON_HCE {
            match r.u32("base evaluation")? {
                1 => true,
                other => return Err(format!("base evaluation {other} (1: the hand-made one)")),
            }
        } else {
            false
        };
        if buckets == 0 || buckets > MAX_BUCKETS || pieces_per_bucket == 0 {
            return Err(format!(
                "{buckets} output buckets of {pieces_per_bucket} pieces (1 to {MAX_BUCKETS} \
                 buckets of at least one piece)"
            ));
        }
        let expected_inputs = FeatureSet::count_for(files, ranks, kinds);
        if inputs != expected_inputs {
            return Err(format!(
                "{inputs} inputs, but a {files}x{ranks} board with {kinds} kinds has {expected_inputs}"
            ));
        }
        let input_weights = r.i16s(inputs * hidden, "input weights")?;
        let hidden_bias = r.i16s(hidden, "hidden biases")?;
        let output_weights = r.i16s(buckets * 2 * hidden, "output weights")?;
        let output_bias = (0..buckets)
            .map(|_| r.u32("output biases").map(|b| b as i32))
            .collect::<Result<Vec<_>, _>>()?;
        if output_weights
            .iter()
            .any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(format!("an output weight is beyond ±{MAX_OUTPUT_WEIGHT}"));
        }
        if r.at != body.len() {
            return Err(format!(
                "{} bytes after the output biases",
                body.len() - r.at
            ));
        }
        Ok(Network {
            variant,
            files,
            ranks,
            kinds,
            inputs,
            hidden,
            input_weights,
            hidden_bias,
            buckets,
            pieces_per_bucket,
            output_weights,
            output_bias,
            on_hce,
        })
    }

    /// The weights of one input, one per neuron.
    #[inline(always)]
    pub fn row(&self, input: u32) -> &[i16] {
        let start = input as usize * self.hidden;
        &self.input_weights[start..start + self.hidden]
    }

    /// The output bucket of a position with `pieces` pieces on the board.
    #[inline(always)]
    pub fn bucket(&self, pieces: usize) -> usize {
        bucket_of(pieces, self.buckets, self.pieces_per_bucket)
    }

    /// The evaluation in centipawns, for the side to move, from its hidden values and the
    /// other side's, by the output of `bucket`.
    #[inline]
    pub fn output(&self, ours: &[i16], theirs: &[i16], bucket: usize) -> i32 {
        let h = self.hidden;
        let weights = &self.output_weights[bucket * 2 * h..(bucket + 1) * 2 * h];
        let (w_ours, w_theirs) = weights.split_at(h);
        let sum = super::simd::screlu_dot(ours, w_ours) + super::simd::screlu_dot(theirs, w_theirs);
        let out = sum / i64::from(QA) + i64::from(self.output_bias[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small_net() -> Network {
        let inputs = FeatureSet::count_for(8, 8, 6);
        let hidden = 16;
        Network {
            variant: "chess".into(),
            files: 8,
            ranks: 8,
            kinds: 6,
            inputs,
            hidden,
            input_weights: (0..inputs * hidden).map(|i| (i % 97) as i16 - 48).collect(),
            hidden_bias: (0..hidden).map(|i| i as i16).collect(),
            buckets: 1,
            pieces_per_bucket: 1,
            output_weights: (0..2 * hidden).map(|i| (i % 21) as i16 - 10).collect(),
            output_bias: vec![-1234],
            on_hce: false,
        }
    }

    fn net_on_hce() -> Network {
        Network {
            on_hce: true,
            ..bucketed_net()
        }
    }

    fn bucketed_net() -> Network {
        let mut net = small_net();
        net.buckets = 4;
        net.pieces_per_bucket = 8;
        net.output_weights = (0..4 * 2 * net.hidden)
            .map(|i| (i % 23) as i16 - 11)
            .collect();
        net.output_bias = vec![-1234, 50, 7, 900];
        net
    }

    #[test]
    fn a_net_reads_back_as_written() {
        for net in [small_net(), bucketed_net(), net_on_hce()] {
            assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
        }
    }

    /// A net of one bucket keeps the first format, so a data file's record of which net
    /// played it stays true; a net with buckets is written in the second.
    #[test]
    fn a_net_of_one_bucket_keeps_the_first_format() {
        assert_eq!(small_net().to_bytes()[8], 1);
        assert_eq!(bucketed_net().to_bytes()[8], 2);
        // A correction of the hand-made evaluation is the third, one word longer.
        assert_eq!(net_on_hce().to_bytes()[8], 3);
        assert_eq!(
            net_on_hce().to_bytes().len(),
            bucketed_net().to_bytes().len() + 4
        );
        // The first format's fields, in order, and nothing more.
        let net = small_net();
        let expected = 8 + 4 + 2 + 5 + 3 + 4 + 4 + 2 * (net.inputs * 16 + 16 + 32) + 4 + 8;
        assert_eq!(net.to_bytes().len(), expected);
    }

    /// Each bucket has its own output, chosen by the pieces on the board.
    #[test]
    fn the_bucket_is_chosen_by_the_pieces_on_the_board() {
        assert_eq!(pieces_per_bucket(32, 8), 4);
        assert_eq!(pieces_per_bucket(2, 8), 1);
        let per = pieces_per_bucket(32, 8);
        let buckets: Vec<usize> = [2, 5, 6, 17, 32, 40].map(|n| bucket_of(n, 8, per)).to_vec();
        assert_eq!(buckets, [0, 0, 1, 3, 7, 7]);
        assert_eq!(bucket_of(30, 1, 1), 0);
        let net = bucketed_net();
        let (ours, theirs): (Vec<i16>, Vec<i16>) = (
            (0..16).map(|i| i * 15).collect(),
            (0..16).map(|i| 200 - i * 9).collect(),
        );
        let outputs: Vec<i32> = (0..4).map(|b| net.output(&ours, &theirs, b)).collect();
        for pair in outputs.windows(2) {
            assert_ne!(pair[0], pair[1], "{outputs:?}");
        }
        assert_eq!(net.bucket(2 + 8 * 2), 2);
    }

    /// A damaged, cut or foreign file is refused with its fault named, never read wrong.
    #[test]
    fn a_broken_file_is_refused_with_its_reason() {
        let bytes = small_net().to_bytes();
        let refused = |b: &[u8]| Network::from_bytes(b).unwrap_err();
        let mut flipped = bytes.clone();
        flipped[bytes.len() / 2] ^= 1;
        assert!(
            refused(&flipped).contains("checksum"),
            "{}",
            refused(&flipped)
        );
        assert!(refused(&bytes[..bytes.len() - 9]).contains("checksum"));
        assert!(refused(b"not a net at all").contains("MAGUSNET"));
        assert!(refused(b"MAGUSNET").contains("too short"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(
            refused(&version).contains("version 9"),
            "{}",
            refused(&version)
        );
        // A file whose sizes disagree with its length, its checksum made right.
        let mut body = bytes[..bytes.len() - 8].to_vec();
        body.extend_from_slice(&[0, 0]);
        let sum = fnv1a(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        assert!(refused(&body).contains("bytes after"), "{}", refused(&body));
        // An output weight beyond the bound the integer sums rely on.
        let mut wild = small_net();
        wild.output_weights[3] = MAX_OUTPUT_WEIGHT + 1;
        assert!(refused(&wild.to_bytes()).contains("output weight"));
        // A base evaluation this magus does not know.
        let mut body = net_on_hce().to_bytes();
        body.truncate(body.len() - 8);
        let at = 8 + 4 + 2 + 5 + 3 + 4 + 4 + 4 + 4;
        body[at] = 2;
        let sum = fnv1a(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        assert!(
            refused(&body).contains("base evaluation 2"),
            "{}",
            refused(&body)
        );
        // Buckets beyond the bound, or of no pieces.
        for (buckets, per) in [(MAX_BUCKETS + 1, 1), (0, 1), (2, 0)] {
            let mut odd = bucketed_net();
            odd.buckets = buckets;
            odd.pieces_per_bucket = per;
            assert!(
                refused(&odd.to_bytes()).contains("buckets"),
                "{}",
                refused(&odd.to_bytes())
            );
        }
    }

    /// A net fits only inputs of its own shape.
    #[test]
    fn a_net_fits_only_its_shape() {
        let net = small_net();
        let registry = crate::variant::Registry::builtin();
        for (name, fits) in [("chess", true), ("magi", false), ("magician-chess", false)] {
            let pos =
                crate::game::AnyPosition::from_fen(registry.get(name).unwrap(), None).unwrap();
            let set = crate::with_position!(&pos, p => FeatureSet::of(p.layout()));
            assert_eq!(net.fits(&set).is_ok(), fits, "{name}");
        }
    }
}

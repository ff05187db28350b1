//! A quantised net and its file.
//!
//! The net: each view's inputs feed one hidden layer (`hidden` neurons, the same weights for
//! both views); the side to move's layer and the other side's, each through a squared
//! clipped ReLU, feed one output. In integers: hidden values are the float values × `QA`,
//! output weights × `QB`, the output bias × `QA·QB`; the output × `SCALE` is centipawns.
//!
//! The file, little-endian: `MAGUSNET`, the format version (u32), the variant's name (u16
//! length, UTF-8), the feature set (files, ranks, kinds: u8 each; then the inputs, u32), the
//! hidden size (u32), the weights (input weights i16 by input then neuron, hidden biases i16,
//! output weights i16, side to move's first, output bias i32), and an FNV-1a checksum (u64)
//! of everything before it.

use super::features::FeatureSet;

pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;
const MAGIC: &[u8; 8] = b"MAGUSNET";
const VERSION: u32 = 1;
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
    /// The side to move's `hidden` weights, then the other side's.
    pub output_weights: Vec<i16>,
    pub output_bias: i32,
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
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.variant.len() as u16).to_le_bytes());
        out.extend_from_slice(self.variant.as_bytes());
        out.extend_from_slice(&[self.files, self.ranks, self.kinds]);
        out.extend_from_slice(&(self.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        for list in [&self.input_weights, &self.hidden_bias, &self.output_weights] {
            for w in list.iter() {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
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
        if version != VERSION {
            return Err(format!(
                "net format version {version}; this magus reads version {VERSION}"
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
        let expected_inputs = FeatureSet::count_for(files, ranks, kinds);
        if inputs != expected_inputs {
            return Err(format!(
                "{inputs} inputs, but a {files}x{ranks} board with {kinds} kinds has {expected_inputs}"
            ));
        }
        let input_weights = r.i16s(inputs * hidden, "input weights")?;
        let hidden_bias = r.i16s(hidden, "hidden biases")?;
        let output_weights = r.i16s(2 * hidden, "output weights")?;
        let output_bias = r.u32("output bias")? as i32;
        if output_weights
            .iter()
            .any(|w| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(format!("an output weight is beyond ±{MAX_OUTPUT_WEIGHT}"));
        }
        if r.at != body.len() {
            return Err(format!("{} bytes after the output bias", body.len() - r.at));
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
            output_weights,
            output_bias,
        })
    }

    /// The weights of one input, one per neuron.
    #[inline(always)]
    pub fn row(&self, input: u32) -> &[i16] {
        let start = input as usize * self.hidden;
        &self.input_weights[start..start + self.hidden]
    }

    /// The evaluation in centipawns, for the side to move, from its hidden values and the
    /// other side's.
    #[inline]
    pub fn output(&self, ours: &[i16], theirs: &[i16]) -> i32 {
        let (w_ours, w_theirs) = self.output_weights.split_at(self.hidden);
        let sum = super::simd::screlu_dot(ours, w_ours) + super::simd::screlu_dot(theirs, w_theirs);
        let out = sum / i64::from(QA) + i64::from(self.output_bias);
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
            output_weights: (0..2 * hidden).map(|i| (i % 21) as i16 - 10).collect(),
            output_bias: -1234,
        }
    }

    #[test]
    fn a_net_reads_back_as_written() {
        let net = small_net();
        assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
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

//! The net in floating point while it learns: the same shape as the engine's quantised net
//! (`eval::nnue::network`), its loss and gradient on one position, AdamW, the quantisation
//! that makes the engine's net of it, and a checkpoint file to resume from.

use super::dataset::Position;
use crate::eval::nnue::FeatureSet;
use crate::eval::nnue::network::{MAX_OUTPUT_WEIGHT, Network, QA, QB, SCALE, bucket_of};
use crate::tournament::openings::SplitMix64;

/// A number drawn evenly from (−spread, spread).
fn uniform(rng: &mut SplitMix64, spread: f32) -> f32 {
    ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * spread
}

/// Weights are kept within ±CLIP: the quantised input weights and hidden values then stay
/// well inside an i16, and the output weights within `MAX_OUTPUT_WEIGHT`.
const CLIP: f32 = 1.98;

/// The sizes of a model: its inputs and hidden layer, which inputs share a factor, and
/// its output buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub inputs: usize,
    pub hidden: usize,
    /// Inputs below this are pieces, `squares` to each (colour, kind): input `i` of them
    /// also feeds the factor `i / squares`.
    pub piece_inputs: usize,
    pub squares: usize,
    /// Output buckets, and the pieces per bucket (`network::bucket_of`).
    pub buckets: usize,
    pub pieces_per_bucket: usize,
    /// The net learns a correction of the hand-made evaluation (each position's `base`),
    /// not the whole score.
    pub on_hce: bool,
}

impl Shape {
    /// One output bucket.
    pub fn of(set: &FeatureSet, hidden: usize) -> Shape {
        Shape {
            inputs: set.count(),
            hidden,
            piece_inputs: 2 * set.kinds as usize * set.squares(),
            squares: set.squares(),
            buckets: 1,
            pieces_per_bucket: 1,
            on_hce: false,
        }
    }

    /// `buckets` output buckets, of `pieces_per_bucket` pieces each.
    pub fn with_buckets(self, buckets: usize, pieces_per_bucket: usize) -> Shape {
        Shape {
            buckets,
            pieces_per_bucket,
            ..self
        }
    }

    /// A correction of the hand-made evaluation, or not.
    pub fn on_hce(self, on_hce: bool) -> Shape {
        Shape { on_hce, ..self }
    }

    /// The output bucket of a position whose side to move's inputs are `ours` (one piece
    /// input for each piece on the board).
    #[inline(always)]
    fn bucket(&self, ours: &[u16]) -> usize {
        if self.buckets == 1 {
            return 0;
        }
        let pieces = ours
            .iter()
            .filter(|&&i| (i as usize) < self.piece_inputs)
            .count();
        bucket_of(pieces, self.buckets, self.pieces_per_bucket)
    }

    fn factors(&self) -> usize {
        self.piece_inputs / self.squares.max(1)
    }

    /// The factor an input feeds, if any.
    #[inline(always)]
    fn factor_of(&self, input: usize) -> Option<usize> {
        (input < self.piece_inputs).then(|| input / self.squares)
    }
}

/// The net being trained. Each piece's input weights are its own plus a factor shared by
/// every square of its (colour, kind): what a piece is worth anywhere is learnt from every
/// position, and only where it stands from the positions that have it there. The factor is
/// added into the inputs' weights when the net is quantised.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    pub shape: Shape,
    /// `[input * hidden + neuron]`; then the hidden biases, each bucket's output weights
    /// (side to move's first), the buckets' output biases and the factors
    /// `[factor * hidden + neuron]`, all in one vector so that the optimiser and the
    /// gradient treat them alike.
    pub params: Vec<f32>,
}

/// Where each part of `Model::params` begins.
#[derive(Clone, Copy)]
struct Parts {
    bias: usize,
    out: usize,
    out_bias: usize,
    factors: usize,
    len: usize,
}

#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

impl Model {
    fn parts(shape: &Shape) -> Parts {
        let h = shape.hidden;
        let bias = shape.inputs * h;
        let out = bias + h;
        let out_bias = out + shape.buckets * 2 * h;
        let factors = out_bias + shape.buckets;
        Parts {
            bias,
            out,
            out_bias,
            factors,
            len: factors + shape.factors() * h,
        }
    }

    /// Small random weights (from `seed`), zero biases and factors.
    pub fn new(shape: Shape, seed: u64) -> Model {
        let p = Self::parts(&shape);
        let mut rng = SplitMix64::new(seed);
        let mut params = vec![0.0; p.len];
        // An input weight's spread makes a hidden value of a typical position (about 32
        // inputs on) spread about ±0.5; an output weight's, an output of about ±1.
        for w in &mut params[..p.bias] {
            *w = uniform(&mut rng, 0.15);
        }
        let out_spread = 1.0 / (2.0 * shape.hidden as f32).sqrt();
        for w in &mut params[p.out..p.out_bias] {
            *w = uniform(&mut rng, out_spread);
        }
        Model { shape, params }
    }

    pub fn hidden(&self) -> usize {
        self.shape.hidden
    }

    pub fn len(&self) -> usize {
        self.params.len()
    }

    pub fn is_empty(&self) -> bool {
        self.params.is_empty()
    }

    /// The weights of `input` as the engine's net will have them: its own plus its factor.
    fn folded_row(&self, input: usize) -> Vec<f32> {
        let (h, p) = (self.shape.hidden, Self::parts(&self.shape));
        let mut row = self.params[input * h..(input + 1) * h].to_vec();
        if let Some(f) = self.shape.factor_of(input) {
            let factor = &self.params[p.factors + f * h..p.factors + (f + 1) * h];
            row.iter_mut().zip(factor).for_each(|(w, f)| *w += f);
        }
        row
    }

    /// The hidden values of one view.
    fn hidden_values(&self, inputs: &[u16], out: &mut [f32]) {
        let (h, p) = (self.shape.hidden, Self::parts(&self.shape));
        out.copy_from_slice(&self.params[p.bias..p.bias + h]);
        for &i in inputs {
            let i = i as usize;
            let row = &self.params[i * h..(i + 1) * h];
            out.iter_mut().zip(row).for_each(|(o, w)| *o += w);
            if let Some(f) = self.shape.factor_of(i) {
                let factor = &self.params[p.factors + f * h..p.factors + (f + 1) * h];
                out.iter_mut().zip(factor).for_each(|(o, w)| *o += w);
            }
        }
    }

    /// The output in centipawns for the side to move (the correction, for a net on the
    /// hand-made evaluation).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let h = self.shape.hidden;
        let mut scratch = Scratch::new(h);
        self.hidden_values(pos.ours, &mut scratch.ours);
        self.hidden_values(pos.theirs, &mut scratch.theirs);
        self.output(&scratch, self.shape.bucket(pos.ours)) * SCALE as f32
    }

    /// The output weights of `bucket`, side to move's first.
    fn output_weights(&self, bucket: usize) -> &[f32] {
        let (h, p) = (self.shape.hidden, Self::parts(&self.shape));
        &self.params[p.out + bucket * 2 * h..p.out + (bucket + 1) * 2 * h]
    }

    fn output(&self, scratch: &Scratch, bucket: usize) -> f32 {
        let (h, p) = (self.shape.hidden, Self::parts(&self.shape));
        let w = self.output_weights(bucket);
        let mut out = self.params[p.out_bias + bucket];
        for i in 0..h {
            out += screlu(scratch.ours[i]) * w[i] + screlu(scratch.theirs[i]) * w[h + i];
        }
        out
    }

    /// The loss of one position: the squared difference between the win chance of the net's
    /// output and the target, a blend of the search score's win chance (weight `lambda`) and
    /// the game's result. With `grad`, its gradient is added there. `k`: centipawns per unit
    /// of the logistic curve.
    pub fn loss(
        &self,
        pos: &Position,
        lambda: f32,
        k: f32,
        scratch: &mut Scratch,
        grad: Option<&mut [f32]>,
    ) -> f32 {
        let (h, p) = (self.shape.hidden, Self::parts(&self.shape));
        self.hidden_values(pos.ours, &mut scratch.ours);
        self.hidden_values(pos.theirs, &mut scratch.theirs);
        let bucket = self.shape.bucket(pos.ours);
        let out = self.output(scratch, bucket);
        let predicted = sigmoid((out * SCALE as f32 + pos.base) / k);
        let target = lambda * sigmoid(pos.score / k) + (1.0 - lambda) * pos.result;
        let diff = predicted - target;
        if let Some(grad) = grad {
            // d loss / d out.
            let d = 2.0 * diff * predicted * (1.0 - predicted) * SCALE as f32 / k;
            grad[p.out_bias + bucket] += d;
            let w = self.output_weights(bucket);
            let out = p.out + bucket * 2 * h;
            for (values, offset, list) in [
                (&scratch.ours, 0, pos.ours),
                (&scratch.theirs, h, pos.theirs),
            ] {
                for i in 0..h {
                    let v = values[i];
                    grad[out + offset + i] += d * screlu(v);
                    scratch.delta[i] = if v > 0.0 && v < 1.0 {
                        d * w[offset + i] * 2.0 * v
                    } else {
                        0.0
                    };
                }
                let delta = &scratch.delta[..h];
                grad[p.bias..p.bias + h]
                    .iter_mut()
                    .zip(delta)
                    .for_each(|(g, d)| *g += d);
                for &input in list {
                    let input = input as usize;
                    let row = &mut grad[input * h..(input + 1) * h];
                    row.iter_mut().zip(delta).for_each(|(g, d)| *g += d);
                    if let Some(f) = self.shape.factor_of(input) {
                        let at = p.factors + f * h;
                        let row = &mut grad[at..at + h];
                        row.iter_mut().zip(delta).for_each(|(g, d)| *g += d);
                    }
                }
            }
        }
        diff * diff
    }

    /// The engine's net for `variant` (inputs `set`): each input's weights with its factor
    /// added, rounded to integers at the network's scales.
    pub fn quantise(&self, variant: &str, set: &FeatureSet) -> Network {
        let p = Self::parts(&self.shape);
        let q = |x: f32, scale: i32| (x * scale as f32).round() as i16;
        let limit = MAX_OUTPUT_WEIGHT as f32 / QB as f32;
        let input_weights = (0..self.shape.inputs)
            .flat_map(|i| self.folded_row(i))
            .map(|w| q(w, QA))
            .collect();
        Network {
            variant: variant.to_string(),
            files: set.files,
            ranks: set.ranks,
            kinds: set.kinds,
            inputs: self.shape.inputs,
            hidden: self.shape.hidden,
            buckets: self.shape.buckets,
            pieces_per_bucket: self.shape.pieces_per_bucket,
            input_weights,
            hidden_bias: self.params[p.bias..p.out]
                .iter()
                .map(|&w| q(w, QA))
                .collect(),
            output_weights: self.params[p.out..p.out_bias]
                .iter()
                .map(|&w| q(w.clamp(-limit, limit), QB))
                .collect(),
            output_bias: self.params[p.out_bias..p.factors]
                .iter()
                .map(|&b| (b * (QA * QB) as f32).round() as i32)
                .collect(),
            on_hce: self.shape.on_hce,
        }
    }

    /// The float model of a quantised net of this shape, to train further: its weights
    /// divided by their scales, so that quantising it again gives the same net. Each piece's
    /// weights are split into their mean over the squares of its (colour, kind), the factor,
    /// and what each square adds to it, so that what the net learns of a piece anywhere is
    /// shared again, and the parts stay within the clip the optimiser keeps.
    pub fn from_network(net: &Network, shape: Shape) -> Result<Model, String> {
        let describe = |inputs: usize, hidden: usize, buckets: usize, on_hce: bool| {
            format!(
                "{inputs} inputs, {hidden} hidden, {buckets} output bucket(s){}",
                if on_hce {
                    ", a correction of the hand-made evaluation"
                } else {
                    ""
                }
            )
        };
        let theirs = describe(net.inputs, net.hidden, net.buckets, net.on_hce);
        let ours = describe(shape.inputs, shape.hidden, shape.buckets, shape.on_hce);
        if theirs != ours || (net.buckets > 1 && net.pieces_per_bucket != shape.pieces_per_bucket) {
            return Err(format!(
                "the net has {theirs}; the training asks for {ours}"
            ));
        }
        let (h, p) = (shape.hidden, Self::parts(&shape));
        let mut params = vec![0.0; p.len];
        for (w, &q) in params[..p.bias].iter_mut().zip(&net.input_weights) {
            *w = f32::from(q) / QA as f32;
        }
        for (w, &q) in params[p.bias..p.out].iter_mut().zip(&net.hidden_bias) {
            *w = f32::from(q) / QA as f32;
        }
        for (w, &q) in params[p.out..p.out_bias]
            .iter_mut()
            .zip(&net.output_weights)
        {
            *w = f32::from(q) / QB as f32;
        }
        for (w, &q) in params[p.out_bias..p.factors]
            .iter_mut()
            .zip(&net.output_bias)
        {
            *w = q as f32 / (QA * QB) as f32;
        }
        for f in 0..shape.factors() {
            let rows = f * shape.squares..(f + 1) * shape.squares;
            for n in 0..h {
                let mean =
                    rows.clone().map(|i| params[i * h + n]).sum::<f32>() / shape.squares as f32;
                params[p.factors + f * h + n] = mean;
                rows.clone().for_each(|i| params[i * h + n] -= mean);
            }
        }
        if let Some(w) = params.iter().find(|w| w.abs() > CLIP) {
            return Err(format!(
                "a weight of {w:.3} is beyond the ±{CLIP} the training keeps"
            ));
        }
        Ok(Model { shape, params })
    }

    /// The checkpoint's bytes after `epochs` epochs: the shape, epochs, then every
    /// parameter.
    pub fn to_bytes(&self, epochs: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity(CHECKPOINT_HEAD + 4 * self.params.len());
        out.extend_from_slice(CHECKPOINT_MAGIC);
        let s = &self.shape;
        let sizes = [
            s.inputs,
            s.hidden,
            s.piece_inputs,
            s.squares,
            s.buckets,
            s.pieces_per_bucket,
            usize::from(s.on_hce),
        ];
        for n in sizes {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        out.extend_from_slice(&epochs.to_le_bytes());
        for w in &self.params {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// A checkpoint and the epochs it had done.
    pub fn from_bytes(bytes: &[u8]) -> Result<(Model, u32), String> {
        const HEAD: usize = CHECKPOINT_HEAD;
        if bytes.len() < HEAD || &bytes[..8] != CHECKPOINT_MAGIC {
            return Err("not a magus training checkpoint (of this version)".into());
        }
        let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
        let shape = Shape {
            inputs: word(8) as usize,
            hidden: word(12) as usize,
            piece_inputs: word(16) as usize,
            squares: word(20) as usize,
            buckets: word(24) as usize,
            pieces_per_bucket: word(28) as usize,
            on_hce: word(32) == 1,
        };
        let epochs = word(36);
        if shape.inputs > 1 << 16
            || shape.hidden > crate::eval::nnue::network::MAX_HIDDEN
            || shape.piece_inputs > shape.inputs
            || shape.squares == 0
            || shape.buckets == 0
            || shape.buckets > crate::eval::nnue::network::MAX_BUCKETS
            || shape.pieces_per_bucket == 0
            || word(32) > 1
        {
            return Err(format!("{shape:?}: not a checkpoint"));
        }
        let len = Self::parts(&shape).len;
        if bytes.len() != HEAD + 4 * len {
            return Err(format!(
                "a checkpoint of {shape:?} has {} bytes, not {}",
                HEAD + 4 * len,
                bytes.len()
            ));
        }
        let params = bytes[HEAD..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok((Model { shape, params }, epochs))
    }
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"MAGUSCK4";
/// The magic, six sizes, the base flag and the epochs done.
const CHECKPOINT_HEAD: usize = 8 + 7 * 4 + 4;

/// Working memory of one thread's loss and gradient.
pub struct Scratch {
    ours: Vec<f32>,
    theirs: Vec<f32>,
    delta: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            ours: vec![0.0; hidden],
            theirs: vec![0.0; hidden],
            delta: vec![0.0; hidden],
        }
    }
}

/// AdamW: the first and second moments of every parameter's gradient.
pub struct AdamW {
    m: Vec<f32>,
    v: Vec<f32>,
    steps: i32,
    pub decay: f32,
    /// What the decay pulls each weight towards (zero when none).
    pub towards: Option<Vec<f32>>,
}

impl AdamW {
    pub fn new(len: usize, decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            steps: 0,
            decay,
            towards: None,
        }
    }

    /// One step of size `rate` against the mean gradient `grad`; weights are then kept within
    /// the clip.
    pub fn step(&mut self, model: &mut Model, grad: &[f32], rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.steps += 1;
        let c1 = 1.0 - B1.powi(self.steps);
        let c2 = 1.0 - B2.powi(self.steps);
        let towards = self.towards.as_deref();
        for (i, (((w, g), m), v)) in model
            .params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
            .enumerate()
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPS);
            let rest = towards.map_or(0.0, |t| t[i]);
            *w = (*w - rate * self.decay * (*w - rest) - rate * update).clamp(-CLIP, CLIP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position<'a>(ours: &'a [u16], theirs: &'a [u16]) -> Position<'a> {
        Position {
            ours,
            theirs,
            score: 120.0,
            result: 1.0,
            base: 0.0,
        }
    }

    /// The gradient is the loss's slope: each parameter nudged by ε moves the loss by the
    /// gradient times ε (a wrong sign or a forgotten term fails). The position has three
    /// pieces, so of three buckets of one piece it uses the second.
    #[test]
    fn the_gradient_is_the_slope_of_the_loss() {
        let shape = Shape {
            inputs: 10,
            hidden: 16,
            piece_inputs: 8,
            squares: 2,
            buckets: 3,
            pieces_per_bucket: 1,
            on_hce: false,
        };
        let mut model = Model::new(shape, 3);
        // Biases away from zero so that some hidden values sit inside (0, 1).
        let p = Model::parts(&shape);
        for (i, b) in model.params[p.bias..p.out].iter_mut().enumerate() {
            *b = 0.1 + 0.05 * i as f32;
        }
        let (ours, theirs) = ([1u16, 4, 7], [2u16, 4, 9]);
        // A base evaluation, as a net on the hand-made one has.
        let pos = Position {
            base: 35.0,
            ..position(&ours, &theirs)
        };
        let mut scratch = Scratch::new(16);
        let mut grad = vec![0.0; model.len()];
        model.loss(&pos, 0.5, 200.0, &mut scratch, Some(&mut grad));
        let mut checked = 0;
        for i in [
            16 + 3,
            4 * 16 + 5,
            9 * 16,
            p.bias + 2,
            // The second bucket's outputs; and the first's, which this position leaves alone.
            p.out + 32 + 3,
            p.out + 32 + 16 + 7,
            p.out_bias + 1,
            p.out + 3,
            p.out_bias,
            // The factors of inputs 4 and 7 (4 / 2 and 7 / 2), and of 1 (0).
            p.factors + 2 * 16 + 5,
            p.factors + 3 * 16 + 3,
            p.factors + 3,
        ] {
            let eps = 1e-3;
            let mut up = model.clone();
            up.params[i] += eps;
            let mut down = model.clone();
            down.params[i] -= eps;
            let slope = (up.loss(&pos, 0.5, 200.0, &mut scratch, None)
                - down.loss(&pos, 0.5, 200.0, &mut scratch, None))
                / (2.0 * eps);
            assert!(
                (slope - grad[i]).abs() <= 0.05 * slope.abs() + 2e-5,
                "parameter {i}: slope {slope}, gradient {}",
                grad[i]
            );
            checked += usize::from(grad[i] != 0.0);
        }
        assert!(checked >= 8, "too few parameters had a gradient to check");
    }

    /// The quantised net evaluates as the float one, within rounding.
    #[test]
    fn the_quantised_net_evaluates_as_the_float_one() {
        use crate::eval::nnue::evaluate;
        use crate::game::AnyPosition;
        use crate::variant::Registry;
        let registry = Registry::builtin();
        let variant = registry.get("chess").unwrap();
        let game = AnyPosition::from_fen(
            variant,
            Some("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5"),
        )
        .unwrap();
        crate::with_position!(&game, p => {
            let set = FeatureSet::of(p.layout());
            // Four output buckets: this position's 32 pieces use the last.
            let per = crate::eval::nnue::network::pieces_per_bucket(32, 4);
            let mut model = Model::new(Shape::of(&set, 32).with_buckets(4, per), 7);
            // Factors of their own, to be folded into the inputs' weights.
            let parts = Model::parts(&model.shape);
            for (i, f) in model.params[parts.factors..].iter_mut().enumerate() {
                *f = ((i * 7) % 13) as f32 * 0.01 - 0.06;
            }
            let net = model.quantise("chess", &set);
            let (mut w, mut b) = (Vec::new(), Vec::new());
            set.active(p, crate::board::Color::White, &mut w);
            set.active(p, crate::board::Color::Black, &mut b);
            let (w, b): (Vec<u16>, Vec<u16>) =
                (w.iter().map(|&i| i as u16).collect(), b.iter().map(|&i| i as u16).collect());
            let float = model.evaluate(&position(&w, &b));
            let quantised = evaluate(&net, p);
            assert!(float.abs() > 5.0, "the random net's output is too small to compare");
            assert!(
                (float - quantised as f32).abs() <= 2.0 + 0.02 * float.abs(),
                "float {float}, quantised {quantised}"
            );
            let (back, epochs) = Model::from_bytes(&model.to_bytes(3)).unwrap();
            assert_eq!((back, epochs), (model.clone(), 3));
            // A correction of the hand-made evaluation keeps its kind in the checkpoint and
            // in the net.
            let mut on_hce = model;
            on_hce.shape = on_hce.shape.on_hce(true);
            let (back, _) = Model::from_bytes(&on_hce.to_bytes(1)).unwrap();
            assert!(back.shape.on_hce);
            assert!(on_hce.quantise("chess", &set).on_hce);
        });
    }

    /// The weight decay pulls towards the weights it is given (a starting net's), else
    /// towards zero.
    #[test]
    fn the_decay_pulls_towards_its_target() {
        let shape = Shape {
            inputs: 2,
            hidden: 16,
            piece_inputs: 0,
            squares: 1,
            buckets: 1,
            pieces_per_bucket: 1,
            on_hce: false,
        };
        let mut model = Model::new(shape, 1);
        model.params.iter_mut().for_each(|w| *w = 1.0);
        let grad = vec![0.0; model.len()];
        let mut to_zero = model.clone();
        AdamW::new(model.len(), 1.0).step(&mut to_zero, &grad, 0.1);
        let mut adam = AdamW::new(model.len(), 1.0);
        adam.towards = Some(vec![0.5; model.len()]);
        adam.step(&mut model, &grad, 0.1);
        assert!(to_zero.params.iter().all(|&w| (w - 0.9).abs() < 1e-6));
        assert!(model.params.iter().all(|&w| (w - 0.95).abs() < 1e-6));
    }

    /// A net read back into a model (to train further) quantises to the same net, its
    /// factors hold each piece's mean weights, and a net of another shape is refused.
    #[test]
    fn a_net_read_back_for_training_quantises_to_itself() {
        use crate::variant::Registry;
        let registry = Registry::builtin();
        let variant = registry.get("chess").unwrap();
        let game = crate::game::AnyPosition::from_fen(variant, None).unwrap();
        let set = crate::with_position!(&game, p => FeatureSet::of(p.layout()));
        let shape = Shape::of(&set, 32).on_hce(true);
        let mut model = Model::new(shape, 11);
        let parts = Model::parts(&shape);
        for (i, w) in model.params[parts.bias..].iter_mut().enumerate() {
            *w = ((i * 5) % 17) as f32 * 0.02 - 0.15;
        }
        let net = model.quantise("chess", &set);
        let back = Model::from_network(&net, shape).unwrap();
        assert_eq!(back.quantise("chess", &set), net);
        // The factor of White's pawns (the first kind) is the mean of its squares' rows.
        let h = shape.hidden;
        let mean = (0..shape.squares)
            .map(|s| f32::from(net.input_weights[s * h + 3]) / QA as f32)
            .sum::<f32>()
            / shape.squares as f32;
        assert!((back.params[parts.factors + 3] - mean).abs() < 1e-5);
        assert!(back.params[parts.factors + 3].abs() > 1e-3);
        let wider = Shape::of(&set, 64).on_hce(true);
        let err = Model::from_network(&net, wider).unwrap_err();
        assert!(
            err.contains("32 hidden") && err.contains("64 hidden"),
            "{err}"
        );
        let alone = Model::from_network(&net, shape.on_hce(false)).unwrap_err();
        assert!(alone.contains("hand-made"), "{alone}");
    }
}

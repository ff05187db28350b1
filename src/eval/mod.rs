//! Static evaluation, from the side to move's view, in centipawns.
//!
//! Terms: material (the variant's piece values); placement (piece-square tables derived from
//! each piece's moves, so file-defined pieces get sensible ones); mobility of sliding pieces;
//! King safety (attacks on the King's zone, pawn shield); pawn structure (passed, isolated,
//! doubled); threats (pieces attacked by lesser ones); and each variant's own terms
//! (`variant_terms.rs`). Weights: each variant's `[eval]` section (`variant::weights`), read
//! into `params.rs`. Middlegame and endgame scores are tapered by the non-pawn material left.
//! Every term but material and tempo can be switched off ([`TermSet`]), to measure in games
//! what it is worth. The same code traces the evaluation's linear form (`trace.rs`), which
//! the tuner fits.

mod endgame;
pub mod nnue;
mod params;
mod tables;
mod trace;
mod variant_terms;
pub mod wdl;

use crate::board::{Bitboard, Color, Kind, MAX_KINDS, Position, Square};
pub use params::{NO_WEIGHT, Params, W};
pub use tables::EvalTables;
pub use trace::{Trace, trace};

/// Which evaluation the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalMode {
    #[default]
    Full,
    /// Material only: the baseline every term is measured against.
    Material,
    /// The learned evaluation (`nnue/`) where the variant has a net; the hand-made one
    /// (`Full`) elsewhere.
    Nnue,
}

/// The terms, for the breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermId {
    Material = 0,
    Placement = 1,
    Mobility = 2,
    KingSafety = 3,
    Pawns = 4,
    Threats = 5,
    Variant = 6,
    Tempo = 7,
    /// Not a row of the breakdown: when off, material counts its middlegame value throughout.
    MaterialTaper = 8,
}

const TERM_NAMES: [&str; 8] = [
    "Material",
    "Placement",
    "Mobility",
    "King safety",
    "Pawns",
    "Threats",
    "Variant",
    "Tempo",
];

/// The terms of the full evaluation that are on. Material and tempo always are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermSet(u16);

impl TermSet {
    pub const ALL: TermSet = TermSet(u16::MAX);

    /// The terms that can be switched off, with the name of the UCI check option that does it.
    pub const SWITCHES: [(TermId, &'static str); 7] = [
        (TermId::MaterialTaper, "Eval Material Taper"),
        (TermId::Placement, "Eval Placement"),
        (TermId::Mobility, "Eval Mobility"),
        (TermId::KingSafety, "Eval King Safety"),
        (TermId::Pawns, "Eval Pawns"),
        (TermId::Threats, "Eval Threats"),
        (TermId::Variant, "Eval Variant Terms"),
    ];

    #[inline(always)]
    pub fn contains(self, term: TermId) -> bool {
        matches!(term, TermId::Material | TermId::Tempo) || self.0 & (1 << term as u16) != 0
    }

    pub fn set(&mut self, term: TermId, on: bool) {
        if on {
            self.0 |= 1 << term as u16;
        } else {
            self.0 &= !(1 << term as u16);
        }
    }
}

impl Default for TermSet {
    fn default() -> Self {
        TermSet::ALL
    }
}

/// Where terms go: summed for the search, kept apart for `eval`, traced for the tuner.
pub(crate) trait Sink {
    /// Whether the sink wants the weights' counts ([`Sink::count`], [`Sink::fixed`]): only
    /// the trace does, and for the others the code that computes them compiles away.
    const TRACING: bool = false;

    fn add(&mut self, term: TermId, color: Color, mg: i32, eg: i32);

    /// `color` has `mg` (middlegame) and `eg` (endgame) times the weight `w` in its sums.
    #[inline(always)]
    fn count(&mut self, _w: W, _color: Color, _mg: f32, _eg: f32) {}

    /// `color` has a part that no weight multiplies (a capped term at its cap).
    #[inline(always)]
    fn fixed(&mut self, _color: Color, _mg: f32, _eg: f32) {}

    /// `color` has `hundredths` / 100 of the weight `w` in term `term` (a share by how far a
    /// pawn has come): the sum, rounded towards zero, and the count for a trace.
    #[inline(always)]
    fn add_hundredths(&mut self, term: TermId, w: W, color: Color, hundredths: i32) {
        self.add(
            term,
            color,
            w.mg * hundredths / 100,
            w.eg * hundredths / 100,
        );
        if Self::TRACING {
            let share = hundredths as f32 / 100.0;
            self.count(w, color, share, share);
        }
    }

    /// `color` has `times` the weight `w` in term `term`: the sum, and the count for a trace.
    #[inline(always)]
    fn add_times(&mut self, term: TermId, w: W, color: Color, times: i32) {
        self.add(term, color, times * w.mg, times * w.eg);
        if Self::TRACING {
            self.count(w, color, times as f32, times as f32);
        }
    }
}

/// The largest King danger, in centipawns: past it the attack units count no more.
const KING_DANGER_CAP: i32 = 600;

#[derive(Default)]
struct Sum {
    mg: i32,
    eg: i32,
}

impl Sink for Sum {
    #[inline(always)]
    fn add(&mut self, _term: TermId, color: Color, mg: i32, eg: i32) {
        if color == Color::White {
            self.mg += mg;
            self.eg += eg;
        } else {
            self.mg -= mg;
            self.eg -= eg;
        }
    }
}

/// A sum that leaves out the terms switched off.
struct Masked {
    sum: Sum,
    terms: TermSet,
}

impl Sink for Masked {
    #[inline(always)]
    fn add(&mut self, term: TermId, color: Color, mg: i32, eg: i32) {
        if term == TermId::Material && !self.terms.contains(TermId::MaterialTaper) {
            self.sum.add(term, color, mg, mg);
        } else if self.terms.contains(term) {
            self.sum.add(term, color, mg, eg);
        }
    }
}

#[derive(Default)]
struct ByTerm {
    parts: [[(i32, i32); 2]; TERM_NAMES.len()],
}

impl Sink for ByTerm {
    fn add(&mut self, term: TermId, color: Color, mg: i32, eg: i32) {
        let p = &mut self.parts[term as usize][color.index()];
        p.0 += mg;
        p.1 += eg;
    }
}

/// The evaluation of `pos` for the side to move.
#[inline]
pub fn evaluate<B: Bitboard>(pos: &Position<B>, tables: &EvalTables<B>) -> i32 {
    let mut sum = Sum::default();
    let phase = collect(pos, tables, &mut sum);
    for_side_to_move(pos, taper_scaled(pos, tables, sum.mg, sum.eg, phase))
}

/// The part of a net's correction of this evaluation (`correction`, centipawns for the side
/// to move) that the endgame knowledge lets stand: where the side it favours has no pawns and
/// too little to win with, it is scaled as the whole score of that side would be (two
/// Knights against a bare King stay a draw whatever the net adds).
pub fn scale_correction<B: Bitboard>(pos: &Position<B>, correction: i32) -> i32 {
    if correction == 0 {
        return 0;
    }
    let favoured = if correction > 0 {
        pos.side()
    } else {
        !pos.side()
    };
    if let Some(pawn) = pos.layout().pawn
        && (pos.color_bb(favoured) & pos.kind_bb(pawn)).any()
    {
        return correction;
    }
    let eg_white = if favoured == Color::White { 1 } else { -1 };
    let scale = endgame::scale(pos, eg_white);
    if scale.whole {
        correction * scale.factor / endgame::SCALE_NORMAL
    } else {
        correction
    }
}

/// The middlegame and endgame scores tapered by the phase, the endgame's scaled by what the
/// side ahead can win with (`endgame.rs`).
#[inline]
fn taper_scaled<B: Bitboard>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    mg: i32,
    eg: i32,
    phase: i32,
) -> i32 {
    let eg = eg + endgame::unstoppable_pawns(pos);
    let scale = endgame::scale(pos, eg);
    if scale.factor == endgame::SCALE_NORMAL {
        tables.taper(mg, eg, phase)
    } else if scale.whole {
        tables.taper(mg, eg, phase) * scale.factor / endgame::SCALE_NORMAL
    } else {
        tables.taper(mg, eg * scale.factor / endgame::SCALE_NORMAL, phase)
    }
}

/// The evaluation with only the terms in `terms`, for the side to move.
pub fn evaluate_terms<B: Bitboard>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    terms: TermSet,
) -> i32 {
    let mut masked = Masked {
        sum: Sum::default(),
        terms,
    };
    let phase = collect(pos, tables, &mut masked);
    for_side_to_move(
        pos,
        taper_scaled(pos, tables, masked.sum.mg, masked.sum.eg, phase),
    )
}

#[inline(always)]
fn for_side_to_move<B: Bitboard>(pos: &Position<B>, white: i32) -> i32 {
    if pos.side() == Color::White {
        white
    } else {
        -white
    }
}

/// Material, placement and tempo only, for the side to move: a cheap estimate that the full
/// evaluation rarely moves by more than [`LAZY_MARGIN`].
#[inline]
pub fn evaluate_fast<B: Bitboard>(pos: &Position<B>, tables: &EvalTables<B>) -> i32 {
    let (mut mg, mut eg, mut phase) = (0, 0, 0);
    for color in Color::BOTH {
        let sign = if color == Color::White { 1 } else { -1 };
        for sq in pos.color_bb(color).squares() {
            let kind = pos.piece_at(sq).unwrap().kind();
            let (pm, pe) = tables.placement(kind, color, sq);
            mg += sign * (tables.values[kind.index()] + pm);
            eg += sign * (tables.endgame_values[kind.index()] + pe);
            phase += tables.phase_weight[kind.index()];
        }
    }
    let white = taper_scaled(pos, tables, mg, eg, phase.min(tables.total_phase));
    let tempo = tables.params.tempo.mg;
    if pos.side() == Color::White {
        white + tempo
    } else {
        -white + tempo
    }
}

/// How far the full evaluation may stray from [`evaluate_fast`] for quiescence to trust the
/// cheap one when it is far outside the window.
pub const LAZY_MARGIN: i32 = 300;

/// Material only, for the side to move.
pub fn evaluate_material<B: Bitboard>(pos: &Position<B>) -> i32 {
    let layout = pos.layout();
    let mut white = 0;
    for sq in pos.occupied().squares() {
        let p = pos.piece_at(sq).unwrap();
        let v = layout.value(p.kind());
        white += if p.color() == Color::White { v } else { -v };
    }
    if pos.side() == Color::White {
        white
    } else {
        -white
    }
}

pub fn evaluate_with<B: Bitboard>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    mode: EvalMode,
    terms: TermSet,
) -> i32 {
    match mode {
        EvalMode::Full | EvalMode::Nnue if terms == TermSet::ALL => evaluate(pos, tables),
        EvalMode::Full | EvalMode::Nnue => evaluate_terms(pos, tables, terms),
        EvalMode::Material => evaluate_material(pos),
    }
}

/// One term of the evaluation for both sides, tapered, in centipawns.
pub struct Term {
    pub name: &'static str,
    pub white: i32,
    pub black: i32,
}

/// The evaluation term by term (what `eval` prints).
pub fn breakdown<B: Bitboard>(pos: &Position<B>) -> Vec<Term> {
    let tables = EvalTables::of(pos.layout());
    let mut parts = ByTerm::default();
    let phase = collect(pos, tables, &mut parts);
    (0..TERM_NAMES.len())
        .map(|t| {
            let [w, b] = parts.parts[t];
            Term {
                name: TERM_NAMES[t],
                white: tables.taper(w.0, w.1, phase),
                black: tables.taper(b.0, b.1, phase),
            }
        })
        .collect()
}

/// Adds every term to `sink`; returns the game phase.
fn collect<B: Bitboard, S: Sink>(pos: &Position<B>, tables: &EvalTables<B>, sink: &mut S) -> i32 {
    let layout = pos.layout();
    let params = &tables.params;
    let blockers = pos.blockers();
    let mut phase = 0;
    let mut attack_units = [0i32; 2];
    // What each side's pieces of each kind attack, for the threats.
    let mut attacks_by_kind = [[B::EMPTY; MAX_KINDS]; 2];
    let kings = [pos.king(Color::White), pos.king(Color::Black)];
    let zones: [B; 2] = [
        tables.king_zone(Color::White, kings[0]),
        tables.king_zone(Color::Black, kings[1]),
    ];

    // What each side's pawns attack, first: a piece's moves onto those squares are not safe.
    let holes = pos.holes();
    let pawns = layout
        .pawn
        .map(|p| [pos.pieces(Color::White, p), pos.pieces(Color::Black, p)]);
    if let Some(pawn) = layout.pawn {
        for color in Color::BOTH {
            for sq in pos.pieces(color, pawn).squares() {
                attacks_by_kind[color.index()][pawn.index()] |=
                    layout.capture_leaps(pawn, color, sq);
            }
        }
    }

    for color in Color::BOTH {
        let c = color.index();
        let them = !color;
        let pawn_attacks = layout
            .pawn
            .map_or(B::EMPTY, |p| attacks_by_kind[them.index()][p.index()]);
        let safe_area = !(pos.color_bb(color) | pawn_attacks | holes);
        for sq in pos.color_bb(color).squares() {
            let kind = pos.piece_at(sq).unwrap().kind();
            let k = kind.index();
            let (pst_mg, pst_eg) = tables.placement(kind, color, sq);
            sink.add(
                TermId::Material,
                color,
                tables.values[k],
                tables.endgame_values[k],
            );
            sink.add(TermId::Placement, color, pst_mg, pst_eg);
            if S::TRACING {
                sink.count(params.material[k], color, 1.0, 1.0);
                for &(w, mg, eg) in tables.placement_features(kind, color, sq) {
                    sink.count(w, color, mg, eg);
                }
            }
            phase += tables.phase_weight[k];
            if layout.is_pawn[k] || kind == layout.king {
                continue;
            }
            // What the piece attacks: its capture leaps and its capture slides.
            let capture_leaps = layout.capture_leaps(kind, color, sq);
            let mut attacks = capture_leaps;
            let mut slid = B::EMPTY;
            let mut reach = 0;
            for slide in layout.slides(kind, color) {
                let ray = layout.ray_attacks(slide.ray, sq, blockers);
                if slide.captures {
                    attacks |= ray;
                }
                slid |= ray;
                reach += (ray & !pos.color_bb(color)).count() as i32;
            }
            if !layout.slides(kind, color).is_empty() {
                let beyond = reach - tables.half_reach[k];
                let w = params.mobility[k];
                sink.add_times(TermId::Mobility, w, color, beyond);
            }
            let w = params.safe_mobility[k];
            if S::TRACING || !w.is_zero() {
                let moves = layout.quiet_leaps(kind, color, sq) | capture_leaps | slid;
                let beyond = (moves & safe_area).count() as i32 - tables.half_moves_reach[k];
                sink.add_times(TermId::Mobility, w, color, beyond);
            }
            if let Some(pawns) = pawns
                && !layout.slides(kind, color).is_empty()
            {
                let file = layout.dims.file(sq) as usize;
                open_file(tables, color, file, k, pawns, sink);
            }
            if let (Some(pawns), Some(pawn)) = (pawns, layout.pawn) {
                let guarded = attacks_by_kind[c][pawn.index()].has(sq);
                outpost(tables, color, sq, k, guarded, pawns[them.index()], sink);
            }
            attacks_by_kind[c][k] |= attacks;
            let on_zone = (attacks & zones[them.index()]).count() as i32;
            attack_units[c] += on_zone * tables.attack_weight[k];
        }
    }

    // What needs every square each side attacks: hanging pieces, safe checks (a linear term,
    // and attack units), and the King zone's weak squares (attack units). The units join the
    // attack on the zone before it is squared, as in Stockfish's King danger.
    let (hanging_w, safe_check_w) = (params.hanging, params.safe_check);
    let (weak_w, check_w) = (params.king_weak_square, params.king_check);
    let needs_checks = S::TRACING || !safe_check_w.is_zero() || !check_w.is_zero();
    let mut checks = [0; 2];
    if needs_checks || !hanging_w.is_zero() || !weak_w.is_zero() {
        let attacked = attacked_by_each_side(pos, &attacks_by_kind);
        hanging(pos, &attacked, hanging_w, sink);
        if needs_checks {
            checks = safe_check_kinds(pos, &attacks_by_kind, &attacked);
            for color in Color::BOTH {
                sink.add_times(
                    TermId::KingSafety,
                    safe_check_w,
                    color,
                    checks[color.index()],
                );
            }
        }
        if !weak_w.is_zero() {
            for color in Color::BOTH {
                let (c, them) = (color.index(), (!color).index());
                let defended = attacks_by_kind[c][..layout.kinds]
                    .iter()
                    .fold(B::EMPTY, |all, &a| all | a);
                let weak = (zones[c] & attacked[them] & !defended).count() as i32;
                attack_units[them] += weak * weak_w.mg;
            }
        }
    }
    for color in Color::BOTH {
        attack_units[color.index()] += checks[color.index()] * check_w.mg;
    }

    // King safety: attacks on the zone grow quadratically; a pawn shield helps.
    for color in Color::BOTH {
        let c = color.index();
        let units = attack_units[(!color).index()];
        let squared = units * units;
        let danger = (squared * params.king_attack.mg / 64).min(KING_DANGER_CAP);
        let mut shield = 0;
        if let Some(pawn) = layout.pawn {
            shield = (pos.pieces(color, pawn) & tables.shield_zone(color, kings[c])).count() as i32;
        }
        let w = params.pawn_shield;
        sink.add(
            TermId::KingSafety,
            color,
            -danger + shield * w.mg,
            -danger / 4 + shield * w.eg,
        );
        if S::TRACING {
            sink.count(w, color, shield as f32, shield as f32);
            // Linear in the weight below the cap; at the cap, a part no weight moves.
            if danger < KING_DANGER_CAP {
                let per_unit = squared as f32 / 64.0;
                sink.count(params.king_attack, color, -per_unit, -per_unit / 4.0);
            } else {
                let cap = KING_DANGER_CAP as f32;
                sink.fixed(color, -cap, -cap / 4.0);
            }
        }
    }

    pairs(pos, params, sink);
    if let Some(pawn) = layout.pawn {
        pawn_structure(pos, tables, pawn, &attacks_by_kind, sink);
    }
    threats(pos, tables, &attacks_by_kind, sink);
    variant_terms::add(pos, tables, sink);
    let tempo = params.tempo;
    sink.add(TermId::Tempo, pos.side(), tempo.mg, tempo.eg);
    if S::TRACING {
        sink.count(tempo, pos.side(), 1.0, 1.0);
    }
    phase.min(tables.total_phase)
}

/// A piece attacked by a piece worth less is in trouble: a pawn on a Knight, a Knight on a
/// Rook. Leaps are the capture leaps, so Deathmatch's Home-File Transference threats count.
fn threats<B: Bitboard, S: Sink>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    attacks_by_kind: &[[B; MAX_KINDS]; 2],
    sink: &mut S,
) {
    let king = pos.layout().king;
    let w = tables.params.threat_by_lesser;
    for color in Color::BOTH {
        let by = &attacks_by_kind[color.index()];
        // Kinds in rising value: `lesser` holds the attacks of every kind worth less than
        // the group being looked at.
        let mut lesser = B::EMPTY;
        let mut group = B::EMPTY;
        let mut group_value = i32::MIN;
        let mut count = 0;
        for &kind in &tables.kinds_by_value {
            let value = tables.declared[kind.index()];
            if value != group_value {
                lesser |= group;
                group = B::EMPTY;
                group_value = value;
            }
            group |= by[kind.index()];
            if kind != king {
                count += (pos.pieces(!color, kind) & lesser).count() as i32;
            }
        }
        if count > 0 {
            sink.add_times(TermId::Threats, w, color, count);
        }
    }
}

/// Every square each side attacks, its King's included.
fn attacked_by_each_side<B: Bitboard>(
    pos: &Position<B>,
    attacks_by_kind: &[[B; MAX_KINDS]; 2],
) -> [B; 2] {
    let layout = pos.layout();
    Color::BOTH.map(|color| {
        let by = &attacks_by_kind[color.index()];
        by[..layout.kinds].iter().fold(
            layout.capture_leaps(layout.king, color, pos.king(color)),
            |all, &a| all | a,
        )
    })
}

/// An enemy piece (not a pawn, not the King) that we attack and they do not defend, even with
/// their King, hangs.
fn hanging<B: Bitboard, S: Sink>(pos: &Position<B>, attacked: &[B; 2], w: W, sink: &mut S) {
    if !S::TRACING && w.is_zero() {
        return;
    }
    let layout = pos.layout();
    let king = layout.king;
    for color in Color::BOTH {
        let them = !color;
        let mut targets = pos.color_bb(them) & !pos.pieces(them, king);
        if let Some(pawn) = layout.pawn {
            targets &= !pos.pieces(them, pawn);
        }
        let count = (targets & attacked[color.index()] & !attacked[them.index()]).count() as i32;
        if count > 0 {
            sink.add_times(TermId::Threats, w, color, count);
        }
    }
}

fn pawn_structure<B: Bitboard, S: Sink>(
    pos: &Position<B>,
    tables: &EvalTables<B>,
    pawn: Kind,
    attacks_by_kind: &[[B; MAX_KINDS]; 2],
    sink: &mut S,
) {
    let params = &tables.params;
    let dims = pos.layout().dims;
    let (phalanx_w, supported_w, backward_w) =
        (params.phalanx, params.supported_pawn, params.backward_pawn);
    let structure = S::TRACING || !(phalanx_w.is_zero() && supported_w.is_zero());
    let backward = S::TRACING || !backward_w.is_zero();
    for color in Color::BOTH {
        let ours = pos.pieces(color, pawn);
        let theirs = pos.pieces(!color, pawn);
        let our_pawn_attacks = attacks_by_kind[color.index()][pawn.index()];
        let their_pawn_attacks = attacks_by_kind[(!color).index()][pawn.index()];
        let forward = if color == Color::White { 1 } else { -1 };
        for sq in ours.squares() {
            let file = dims.file(sq) as usize;
            let progress = tables.progress(color, sq);
            if (theirs & tables.passed_mask(color, sq)).is_empty() {
                passed_pawn(pos, params, color, sq, progress, sink);
            }
            let neighbours = ours & tables.adjacent_files[file];
            if neighbours.is_empty() {
                let w = params.isolated_pawn;
                sink.add_times(TermId::Pawns, w, color, 1);
            } else if backward {
                // No pawn on the next files is level with it or behind it, so none can come
                // to defend it, and an enemy pawn stops it from catching up.
                let unsupportable = (neighbours & !tables.passed_mask(color, sq)).is_empty();
                if unsupportable
                    && let Some(next) = dims.offset(sq, 0, forward)
                    && their_pawn_attacks.has(next)
                {
                    sink.add_times(TermId::Pawns, backward_w, color, 1);
                }
            }
            if structure {
                let beside = [-1, 1]
                    .into_iter()
                    .filter_map(|df| dims.offset(sq, df, 0))
                    .any(|s| ours.has(s));
                if beside {
                    sink.add_hundredths(TermId::Pawns, phalanx_w, color, progress);
                }
                if our_pawn_attacks.has(sq) {
                    sink.add_times(TermId::Pawns, supported_w, color, 1);
                }
            }
            let ahead = ours & tables.front_span(color, sq);
            // A pawn still where the setup put it behind another (Magi's d2/d3 and g2/g3,
            // whose first moves can pass one another's squares) is not a weakness.
            let setup = tables.setup_pawns[color.index()];
            if ahead.any() && !(setup.has(sq) && (ahead & !setup).is_empty()) {
                let w = params.doubled_pawn;
                sink.add_times(TermId::Pawns, w, color, 1);
            }
        }
    }
}

/// How many kinds of each side's pieces can check the enemy King from a square that side
/// does not guard (the King's own attacks included), whether or not the check is played: one
/// count per kind, however many such squares it has. Indexed by the checking side.
fn safe_check_kinds<B: Bitboard>(
    pos: &Position<B>,
    attacks_by_kind: &[[B; MAX_KINDS]; 2],
    attacked: &[B; 2],
) -> [i32; 2] {
    let layout = pos.layout();
    let blockers = pos.blockers();
    let not_holes = !pos.holes();
    Color::BOTH.map(|color| {
        let them = !color;
        let king_sq = pos.king(them);
        let unguarded = not_holes & !pos.color_bb(color) & !attacked[them.index()];
        let mut count = 0;
        let ours = &attacks_by_kind[color.index()][..layout.kinds];
        for (k, &attacks) in ours.iter().enumerate() {
            let kind = Kind(k as u8);
            if layout.is_pawn[k] || kind == layout.king || pos.pieces(color, kind).is_empty() {
                continue;
            }
            // The squares a piece of this kind checks from are its attacks from the King's
            // square with the King's colour: that side's moves are ours mirrored across the
            // ranks, which for a piece the same to its left and right (every built-in one)
            // are ours turned round.
            let mut from = layout.capture_leaps(kind, them, king_sq);
            for slide in layout.slides(kind, them) {
                if slide.captures {
                    from |= layout.ray_attacks(slide.ray, king_sq, blockers);
                }
            }
            if (from & attacks & unguarded).any() {
                count += 1;
            }
        }
        count
    })
}

/// An advanced piece that a pawn of its side defends and that no enemy pawn can ever attack
/// (none stands ahead of it on the next files) is hard to drive away.
fn outpost<B: Bitboard, S: Sink>(
    tables: &EvalTables<B>,
    color: Color,
    sq: Square,
    k: usize,
    guarded_by_pawn: bool,
    their_pawns: B,
    sink: &mut S,
) {
    let w = tables.params.outpost[k];
    if (!S::TRACING && w.is_zero())
        || !guarded_by_pawn
        || !tables.outpost_ranks[color.index()].has(sq)
    {
        return;
    }
    // The squares an enemy pawn could attack it from are ahead of it on the next files.
    let attackers = tables.passed_mask(color, sq) & !tables.front_span(color, sq);
    if (their_pawns & attackers).is_empty() {
        sink.add_times(TermId::Placement, w, color, 1);
    }
}

/// A sliding piece on a file without pawns of its own side: more when no pawn at all stands
/// there.
fn open_file<B: Bitboard, S: Sink>(
    tables: &EvalTables<B>,
    color: Color,
    file: usize,
    k: usize,
    pawns: [B; 2],
    sink: &mut S,
) {
    let params = &tables.params;
    let (open, semi) = (params.open_file[k], params.semi_open_file[k]);
    if !S::TRACING && open.is_zero() && semi.is_zero() {
        return;
    }
    let file = tables.files[file];
    if (file & pawns[color.index()]).any() {
        return;
    }
    let w = if (file & pawns[(!color).index()]).is_empty() {
        open
    } else {
        semi
    };
    sink.add_times(TermId::Placement, w, color, 1);
}

/// Two pieces of a kind or more: the Bishop pair, and whatever a variant's fit finds for the
/// other kinds.
fn pairs<B: Bitboard, S: Sink>(pos: &Position<B>, params: &Params, sink: &mut S) {
    let layout = pos.layout();
    for (k, &w) in params.pair.iter().enumerate().take(layout.kinds) {
        if !S::TRACING && w.is_zero() {
            continue;
        }
        for color in Color::BOTH {
            if pos.pieces(color, Kind(k as u8)).count() >= 2 {
                sink.add_times(TermId::Material, w, color, 1);
            }
        }
    }
}

/// A passed pawn: worth more the further it has come, less when its next square is taken,
/// more when its own King is nearer that square than the enemy King is.
fn passed_pawn<B: Bitboard, S: Sink>(
    pos: &Position<B>,
    params: &Params,
    color: Color,
    sq: Square,
    progress: i32,
    sink: &mut S,
) {
    let mut by_progress =
        |w: W, times: i32| sink.add_hundredths(TermId::Pawns, w, color, progress * times);
    by_progress(params.passed_pawn, 1);
    let (blocked, king_distance) = (params.passed_blocked, params.passed_king_distance);
    if !S::TRACING && blocked.is_zero() && king_distance.is_zero() {
        return;
    }
    let dims = pos.layout().dims;
    let forward = if color == Color::White { 1 } else { -1 };
    let Some(next) = dims.offset(sq, 0, forward) else {
        return;
    };
    if pos.blockers().has(next) {
        by_progress(blocked, 1);
    }
    let distance = |from: Square| {
        let df = (dims.file(from) as i32 - dims.file(next) as i32).abs();
        let dr = (dims.rank(from) as i32 - dims.rank(next) as i32).abs();
        df.max(dr)
    };
    let closer = distance(pos.king(!color)) - distance(pos.king(color));
    by_progress(king_distance, closer);
}

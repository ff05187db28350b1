//! The kind of a node as a type: the root, a PV node (open window) or a non-PV node (null
//! window). `alphabeta` is compiled once per kind, so the tests that tell them apart cost
//! nothing at run time.

pub trait NodeType {
    /// Searched with an open window: its line is the principal variation.
    const PV: bool;
    /// The root: its moves come from the root move list.
    const ROOT: bool;
}

pub struct Root;
pub struct Pv;
pub struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}

impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}

impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

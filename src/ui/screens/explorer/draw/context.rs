//! What the parts of browse mode (the layout, the node list, the node
//! details) share: below all of them.

use super::*;
use crate::engine::tree::{NodeId, SearchTree};

/// What the parts of the browse view share: the node shown, its board and
/// the styles.
pub(super) struct Browse<'a, V: crate::engine::Variant> {
    pub(super) app: &'a Shared,
    pub(super) ex: &'a Explorer<V>,
    pub(super) t: &'a SearchTree<V>,
    pub(super) theme: &'a Theme,
    pub(super) text: Style,
    pub(super) dim: Style,
    pub(super) bold: Style,
    pub(super) pv: Vec<NodeId>,
    pub(super) here: NodeId,
    pub(super) node: &'a crate::engine::tree::TreeNode,
    pub(super) board: crate::engine::Board<V>,
}

//! Disjoint sets (union-find): the players who are connected by games.

use std::collections::HashMap;

/// The root of `x` in the union-find forest `parent` (halving the path).
pub(super) fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The items of `(node, item)` grouped by their node's root in `parent`, in
/// the order of each group's first item.
pub(super) fn by_root(
    parent: &mut [usize],
    items: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Vec::new();
    let mut at: HashMap<usize, usize> = HashMap::new();
    for (node, item) in items {
        let r = root(parent, node);
        let n = *at.entry(r).or_insert_with(|| {
            out.push(Vec::new());
            out.len() - 1
        });
        out[n].push(item);
    }
    out
}

//! The solved table of one number of stones: a layout and its entries.

use fanorona::Bitboard;

use super::{index::Layout, value::Value};

/// Every position with a given number of stones, each with its entry.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Table {
    layout: Layout,
    values: Vec<Value>,
}

impl Table {
    /// A table from its entries, in the order of `layout`; `None` when the
    /// number of entries is not the layout's size.
    pub(crate) fn new(layout: Layout, values: Vec<Value>) -> Option<Table> {
        (values.len() == layout.size()).then_some(Table { layout, values })
    }

    /// The entry of the position with `us` to move against `them`, whose
    /// stones add up to this table's number.
    #[inline]
    pub(crate) fn get(&self, us: Bitboard, them: Bitboard) -> Value {
        self.values[self.layout.index(us, them)]
    }

    /// Every entry, in index order.
    pub(crate) fn values(&self) -> &[Value] {
        &self.values
    }
}

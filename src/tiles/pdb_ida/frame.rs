//! The lean search's record of a node ([`super::lean`]): in each orientation, the sum and
//! each pattern's index into its spread copy and value, one frame a depth, so that a
//! child's lookups read its parent's frame and write its own and nothing is undone.

use super::patterns::Patterns;

/// The most patterns an orientation of the lean search has.
pub(super) const GROUPS: usize = 4;
/// The most orientations the lean search maximises over.
pub(super) const ORIENT: usize = 8;

/// What the lean search knows of a node: in each orientation o, the sum and, at slot
/// `o · GROUPS + g`, pattern g's index into its spread copy and its value.
#[derive(Clone, Copy)]
pub(super) struct Frame {
    pub(super) rank: [u32; ORIENT * GROUPS],
    pub(super) val: [u8; ORIENT * GROUPS],
    pub(super) sum: [u32; ORIENT],
}

impl Frame {
    /// The frame of the orientations whose patterns are `pats` (the first `pats.len()`).
    pub(super) fn of(pats: &[Patterns]) -> Frame {
        let mut f = Frame {
            rank: [0; ORIENT * GROUPS],
            val: [0; ORIENT * GROUPS],
            sum: [0; ORIENT],
        };
        for (o, p) in pats.iter().enumerate() {
            for g in 0..GROUPS {
                f.rank[o * GROUPS + g] = p.rank[g];
                f.val[o * GROUPS + g] = p.val[g] as u8;
            }
            f.sum[o] = p.sum;
        }
        f
    }

    /// `pats` with the frame's indexes, values and sums (for the parallel search's
    /// frontier: the cells are not kept by lookups in spread copies).
    pub(super) fn write_to(&self, pats: &mut [Patterns]) {
        for (o, p) in pats.iter_mut().enumerate() {
            for g in 0..GROUPS {
                p.rank[g] = self.rank[o * GROUPS + g];
                p.val[g] = u32::from(self.val[o * GROUPS + g]);
            }
            p.sum = self.sum[o];
        }
    }
}

//! An observation's element in a batch's buffers: float32, the layout as
//! `cardtable.rl.observation` gives it, or int8, the same numbers in a quarter of the bytes:
//! each entry times its column's divisor (`Layout.column_divisors`: 1 for an entry that is
//! 0 or 1, 7 for Knockout Whist's hand sizes, …), a small whole number, so that the int8
//! value over the divisor is the float32 entry exactly.

use crate::observation::Observe;

/// What a batch writes its observations as.
pub trait Cell: Copy + Send + Sync + 'static {
    /// Whether the form needs each column's divisor (the batch's `divisors`).
    const NEEDS_DIVISORS: bool;

    /// Writes `seat`'s observation of `state` into `out`, through `scratch` (room for one
    /// float32 observation) and `divisors` where the form needs them.
    fn observe<G: Observe>(
        state: &G,
        seat: usize,
        out: &mut [Self],
        scratch: &mut [f32],
        divisors: &[f32],
    );
}

impl Cell for f32 {
    const NEEDS_DIVISORS: bool = false;

    fn observe<G: Observe>(state: &G, seat: usize, out: &mut [f32], _: &mut [f32], _: &[f32]) {
        state.observe(seat, out);
    }
}

impl Cell for i8 {
    const NEEDS_DIVISORS: bool = true;

    fn observe<G: Observe>(
        state: &G,
        seat: usize,
        out: &mut [i8],
        scratch: &mut [f32],
        divisors: &[f32],
    ) {
        // Adding 1.5·2**23 to a float32 below 2**22 in size rounds it to the nearest whole
        // number and leaves that number, in two's complement, in the low bits of the sum's
        // representation: its low byte is the int8. One addition and a truncation a value,
        // which vectorize (a float-to-int cast saturates, one value at a time).
        const ROUND: f32 = 12_582_912.0;
        state.observe(seat, scratch);
        for ((cell, &value), &divisor) in out.iter_mut().zip(scratch.iter()).zip(divisors) {
            // A count over its divisor, times the divisor: a whole number give or take the
            // float32 rounding of the quotient, within i8 (the largest is Neuf's score, 36).
            *cell = (value * divisor + ROUND).to_bits() as i8;
        }
    }
}

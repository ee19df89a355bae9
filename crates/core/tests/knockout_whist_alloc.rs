//! The speed contract: playing a game (`apply`, `legal_mask`, `random_action`, `clone`,
//! the seeded deals and cuts inside `apply`) and search's guided rollouts never touch the
//! heap. An allocator that counts the allocations made on the testing thread while
//! counting is on checks it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use cardtable_core::game::{new_game, Game, OptionValue, PlayoutRng};
use cardtable_core::rollout::Guided;
use cardtable_core::KnockoutWhist;
use rand::SeedableRng;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

// SAFETY: every call is passed straight to the system allocator; the counter only reads a
// thread-local flag, which needs no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.with(Cell::get) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn whole_games_play_without_allocating() {
    let mut decisions = 0;
    for players in 2..=7 {
        let pairs = [("players".to_string(), OptionValue::Int(players))];
        let options = KnockoutWhist::options(&pairs).unwrap();
        for seed in 0..60 {
            let start: KnockoutWhist = new_game(&options, seed);
            let mut rng = PlayoutRng::seed_from_u64(seed as u64);
            COUNTING.with(|c| c.set(true));
            let mut state = start.clone();
            while state.to_move().is_some() {
                let _ = state.legal_mask();
                let mut copy = state.clone();
                let _ = state.guided_action(&mut rng);
                let _ = copy.guided_rollout(&mut rng);
                let action = state.random_action(&mut rng);
                state.apply(action);
                decisions += 1;
            }
            COUNTING.with(|c| c.set(false));
        }
    }
    assert!(decisions > 10_000);
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
}

//! The speed contract: playing a game (`apply`, `legal_mask`, `random_action`, `clone`,
//! the seeded deals and cuts inside `apply`), search's guided rollouts and writing a seat's
//! observation into a buffer never touch the heap. An allocator that counts the
//! allocations made on the testing thread while counting is on checks it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use cardtable_core::game::{new_game, Game, OptionValue, PlayoutRng};
use cardtable_core::rollout::Guided;
use cardtable_core::{KnockoutWhist, KrytNavalivat, Neuf, Observe};
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

/// Observations by every seat at every step of seeded random games; the number made.
fn observe_games<G: Observe>(pairs: &[(&str, OptionValue)]) -> usize {
    let pairs: Vec<(String, OptionValue)> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let options = G::options(&pairs).unwrap();
    let mut made = 0;
    for seed in 0..20 {
        let mut state: G = new_game(&options, seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        let mut out = vec![0.0f32; G::observation_size(state.players())];
        COUNTING.with(|c| c.set(true));
        loop {
            for seat in 0..state.players() {
                state.observe(seat, &mut out);
                made += 1;
            }
            if state.to_move().is_none() {
                break;
            }
            let action = state.random_action(&mut rng);
            state.apply(action);
        }
        COUNTING.with(|c| c.set(false));
    }
    made
}

#[test]
fn observing_never_allocates() {
    let mut made = 0;
    for n in [2, 3, 5, 7] {
        made += observe_games::<KnockoutWhist>(&[("players", OptionValue::Int(n))]);
    }
    for n in [3, 4] {
        made += observe_games::<Neuf>(&[("players", OptionValue::Int(n))]);
    }
    made += observe_games::<Neuf>(&[
        ("players", OptionValue::Int(3)),
        ("tie_avoidance", OptionValue::Bool(true)),
    ]);
    for mode in ["turned", "permanent"] {
        made += observe_games::<KrytNavalivat>(&[
            ("players", OptionValue::Int(4)),
            ("trump_mode", OptionValue::Str(mode.into())),
        ]);
    }
    assert!(made > 50_000, "{made}");
    assert_eq!(ALLOCATIONS.load(Ordering::Relaxed), 0);
}

//! The guided rollout policy (`cardtable.bots.knockout_whist_rollout`) over random games
//! of every table size: its actions are always legal, whole games played by it end with
//! one winner, and its rollouts return zero-sum values without touching the state. (That
//! it draws and chooses as the Python policy does is `tests/core/test_core_guided.py`'s check;
//! that its hand played locally ends as the engine ends it, the unit tests'.)

mod knockout_whist_support;

use cardtable_core::game::{new_game, Game, PlayoutRng};
use cardtable_core::knockout_whist::DOG_CHANCE;
use cardtable_core::rollout::{Draw, Guided, Script};
use cardtable_core::KnockoutWhist;
use knockout_whist_support::{action, field, from_position, options, Compose};
use rand::{Rng, SeedableRng};

/// Draws from a generator, counted.
struct Counted {
    rng: PlayoutRng,
    used: usize,
}

impl Counted {
    fn new(seed: u64) -> Counted {
        Counted {
            rng: PlayoutRng::seed_from_u64(seed),
            used: 0,
        }
    }
}

impl Draw for Counted {
    fn draw(&mut self) -> f64 {
        self.used += 1;
        self.rng.random()
    }
}

fn assert_legal(state: &KnockoutWhist, action: usize) {
    assert!(
        state.legal_mask() >> action & 1 == 1,
        "the policy's {} is not legal in {}",
        KnockoutWhist::action_text(action),
        state.position()
    );
}

#[test]
fn whole_games_played_by_the_policy_are_legal_and_end_with_one_winner() {
    for seed in 0..300 {
        let players = 2 + seed as usize % 6;
        let mut state: KnockoutWhist = new_game(&options(players, None), seed);
        let mut draw = Counted::new(seed as u64);
        while state.to_move().is_some() {
            let action = state.guided_action(&mut draw);
            assert_legal(&state, action);
            state.apply(action);
        }
        let returns = state.returns().expect("the game is over");
        assert_eq!(returns[..players].iter().filter(|&&r| r == 1.0).count(), 1);
    }
}

#[test]
fn the_policy_is_legal_and_rollouts_zero_sum_along_random_games() {
    // Random games meet what the policy alone would not: dogs leading, odd voids.
    let mut dogs = 0;
    for seed in 0..300 {
        let players = 2 + seed as usize % 6;
        let mut state: KnockoutWhist = new_game(&options(players, None), seed);
        let mut rng = PlayoutRng::seed_from_u64(seed as u64);
        let mut draw = Counted::new(1000 + seed as u64);
        while let Some(p) = state.to_move() {
            let action = state.guided_action(&mut draw);
            assert_legal(&state, action);
            dogs += usize::from(field(&state, "status").as_bytes()[p] == b'D');
            let before = state.position();
            let returns = state.clone().guided_rollout(&mut draw);
            let mut copy = state.clone();
            copy.guided_rollout(&mut draw);
            assert_eq!(copy.position(), before, "a rollout leaves the state alone");
            assert!(
                returns[..players].iter().sum::<f64>().abs() < 1e-12,
                "{returns:?} from {before}"
            );
            assert!(returns[..players]
                .iter()
                .all(|&r| (-1.0..=1.0).contains(&r)));
            assert!(returns[players..].iter().all(|&r| r == 0.0));
            let random = state.random_action(&mut rng);
            state.apply(random);
        }
    }
    assert!(dogs > 0);
}

/// A three-player position of hand `hand`, dealer 2 (seat 0 leads), the dog's life used,
/// spades trumps.
fn three(hands: &[&str], hand: u8, status: &'static str) -> KnockoutWhist {
    let mut c = Compose::new(hands, hand, 2);
    c.trump = Some("S");
    c.status = Some(status);
    c.dog_used = true;
    c.chooser = Some(0);
    from_position(3, &c.text())
}

/// Draws that never explore: the policy's card sense alone.
const STEADY: [f64; 64] = [0.5; 64];

#[test]
fn w_7_the_last_trick_of_hand_7_decides_and_a_dog_must_play_in_it() {
    // W-3: the dog (seat 1) may not knock on the last trick; its 2S trumps the lead and
    // takes the game (W-7). The dog draws nothing there; the other two one draw each.
    let state = three(&["AH", "2S", "KH"], 7, "ADA");
    let mut script = Script::new(&STEADY);
    let returns = state.clone().guided_rollout(&mut script);
    assert_eq!(returns[..3], [-0.5, 1.0, -0.5]);
    assert_eq!(script.used, 2);
}

#[test]
fn kow_5_2_a_hand_leaving_one_player_ends_the_game() {
    // Seat 0 leads its trumps and takes both tricks; the dog's life is used, so the others
    // are out and seat 0 has won.
    let state = three(&["AS KS", "2H 3H", "4H 5H"], 6, "AAA");
    let mut script = Script::new(&STEADY);
    let returns = state.clone().guided_rollout(&mut script);
    assert_eq!(returns[..3], [1.0, -0.5, -0.5]);
    assert_eq!(script.used, 6);
}

#[test]
fn kow_6_1_players_blanked_with_the_dogs_life_unused_become_dogs_in_the_estimate() {
    let mut c = Compose::new(&["AS KS", "2H 3H", "4H 5H"], 6, 2);
    c.trump = Some("S");
    c.chooser = Some(0);
    let state = from_position(3, &c.text());
    let mut script = Script::new(&STEADY);
    let returns = state.clone().guided_rollout(&mut script);
    // Weights 1, DOG_CHANCE, DOG_CHANCE; a win returns 1 and a loss -1/2.
    let total = 1.0 + 2.0 * DOG_CHANCE;
    let dog = DOG_CHANCE / total + (1.0 - DOG_CHANCE / total) * -0.5;
    let active = 1.0 / total + (1.0 - 1.0 / total) * -0.5;
    for (r, e) in returns[..3].iter().zip([active, dog, dog]) {
        assert!((r - e).abs() < 1e-15, "{returns:?}");
    }
    assert_eq!(returns[3..], [0.0; 4]);
}

#[test]
fn kow_3_2_the_chooser_names_its_longest_suit_without_drawing() {
    // Clubs: four cards (score 8); spades: two honours (2 * 2 + 2 = 6).
    let mut c = Compose::new(
        &[
            "2C 3C 4C 5C QS KS",
            "2D 3D 4D 5D 6D 7D",
            "2H 3H 4H 5H 6H 7H",
        ],
        2,
        2,
    );
    c.phase = "trump";
    c.chooser = Some(0);
    let state = from_position(3, &c.text());
    let mut script = Script::new(&[]);
    assert_eq!(state.guided_action(&mut script), action("trump C"));
    assert_eq!(script.used, 0);
    // The rollout names the same trumps, then plays the hand out.
    let mut script = Script::new(&STEADY);
    let returns = state.clone().guided_rollout(&mut script);
    assert!(returns[..3].iter().sum::<f64>().abs() < 1e-12);
    assert!(!script.ran_out());
}
